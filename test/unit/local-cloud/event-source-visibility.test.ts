/**
 * What Lambda checks when it creates an SQS event source mapping: the queue's visibility timeout is at least the
 * function's timeout (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html), with Lambda's text.
 */
import { checkQueueVisibilityCoversTimeout } from '#localstack/cloud/workers/event-source-permissions';

const queue = 'arn:aws:sqs:us-east-1:000000000000:send';
const fn = (timeoutSeconds: number) => ({ functionName: 'Mailservice-SendEmail', timeoutSeconds });

describe('checkQueueVisibilityCoversTimeout', () => {
  it('accepts a visibility equal to or above the timeout', () => {
    expect(() => checkQueueVisibilityCoversTimeout([{ fn: fn(60), queueArn: queue }], new Map([[queue, 60]]))).not.toThrow();
    expect(() => checkQueueVisibilityCoversTimeout([{ fn: fn(30), queueArn: queue }], new Map([[queue, 60]]))).not.toThrow();
  });

  it("refuses a visibility below the timeout with Lambda's InvalidParameterValueException text", () => {
    expect(() => checkQueueVisibilityCoversTimeout([{ fn: fn(61), queueArn: queue }], new Map([[queue, 60]]))).toThrow(
      'InvalidParameterValueException: the event source mapping of Mailservice-SendEmail cannot be created: Queue visibility timeout: 60 seconds is less than Function timeout: 61 seconds',
    );
  });

  it('refuses a mapping on a queue the template does not define', () => {
    expect(() => checkQueueVisibilityCoversTimeout([{ fn: fn(3), queueArn: queue }], new Map())).toThrow(/does not define/);
  });
});
