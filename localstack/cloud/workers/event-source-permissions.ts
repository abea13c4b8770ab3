/**
 * What Lambda checks when an event source mapping is created: the function's execution role may read the
 * source and send to the on-failure destination, else CreateEventSourceMapping fails (and the deploy with it)
 * with InvalidParameterValueException, "The provided execution role does not have permissions to call
 * ReceiveMessage on SQS". Lambda reads the source with the function's role, so these are the role's
 * permissions (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html#events-sqs-permissions,
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html#events-dynamodb-permissions,
 * https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html). Checked once, at start,
 * as AWS checks at creation (not on every poll).
 *
 * Also checked at creation, with or without IAM: an SQS mapping's queue must have a visibility timeout of
 * at least its function's timeout, else CreateEventSourceMapping fails with InvalidParameterValueException,
 * "Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds"
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html#events-sqs-queueconfig).
 */
import type { Authorizer } from '../../iam/authorize';
import { principalOf, type LocalFunction } from '../lambda/function-context';
import type { DeployedStack } from '../template/deployed-stack';

export interface EventSourceToCheck {
  fn: LocalFunction;
  kind: 'sqs' | 'stream';
  /** Queue URL (sqs) or stream ARN (stream). */
  source: string;
  onFailureQueueUrl?: string;
}

const SQS_CALLS = ['ReceiveMessage', 'DeleteMessage', 'GetQueueAttributes'];
const STREAM_CALLS = ['DescribeStream', 'GetShardIterator', 'ListStreams'];

/** Throws, naming the function and the call, when a role lacks what its event source mapping needs. */
export async function checkEventSourcePermissions(authorizer: Authorizer, sources: EventSourceToCheck[]): Promise<void> {
  for (const { fn, kind, source, onFailureQueueUrl } of sources) {
    const principal = principalOf(fn);
    const calls: [string, string, Record<string, unknown>, string][] =
      kind === 'sqs'
        ? SQS_CALLS.map((call) => [
            'SQSClient',
            `${call}Command`,
            { QueueUrl: source, ReceiptHandle: 'check', AttributeNames: ['All'] },
            `${call} on SQS`,
          ])
        : STREAM_CALLS.map((call) => [
            'DynamoDBStreamsClient',
            `${call}Command`,
            { StreamArn: source, ShardId: 'shardId-check', ShardIteratorType: 'TRIM_HORIZON' },
            `${call} on DynamoDB`,
          ]);
    if (onFailureQueueUrl)
      calls.push([
        'SQSClient',
        'SendMessageCommand',
        { QueueUrl: onFailureQueueUrl, MessageBody: '{}' },
        'SendMessage on the on-failure destination (SQS)',
      ]);
    for (const [client, command, input, what] of calls) {
      const verdict = await authorizer.authorize(principal, client, command, input);
      if (!verdict.allowed) {
        const error = new Error(
          `InvalidParameterValueException: the event source mapping of ${fn.functionName} cannot be created: the provided execution role does not have permissions to call ${what}${verdict.error ? ` (${verdict.error.message})` : ''}`,
        );
        error.name = 'InvalidParameterValueException';
        throw error;
      }
    }
  }
}

/** SQS's VisibilityTimeout when a queue does not set one (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_CreateQueue.html). */
const SQS_DEFAULT_VISIBILITY_SECONDS = 30;

/** Each queue's VisibilityTimeout as the template gives it (not the test stacks' shortened one), by queue ARN. */
export function templateVisibilityTimeouts(stack: DeployedStack): Map<string, number> {
  return new Map(
    stack
      .ofType('AWS::SQS::Queue')
      .map((id) => [
        stack.record(id).attributes.Arn as string,
        Number(stack.properties<{ VisibilityTimeout?: number | string }>(id).VisibilityTimeout ?? SQS_DEFAULT_VISIBILITY_SECONDS),
      ]),
  );
}

/** Throws Lambda's error when an SQS mapping's queue hides a message for less than its function may run. */
export function checkQueueVisibilityCoversTimeout(
  sources: { fn: Pick<LocalFunction, 'functionName' | 'timeoutSeconds'>; queueArn: string }[],
  visibilityOf: Map<string, number>,
): void {
  for (const { fn, queueArn } of sources) {
    const visibility = visibilityOf.get(queueArn);
    if (visibility === undefined)
      throw new Error(`the event source mapping of ${fn.functionName} reads ${queueArn}, which the template does not define`);
    if (visibility >= fn.timeoutSeconds) continue;
    const error = new Error(
      `InvalidParameterValueException: the event source mapping of ${fn.functionName} cannot be created: Queue visibility timeout: ${visibility} seconds is less than Function timeout: ${fn.timeoutSeconds} seconds`,
    );
    error.name = 'InvalidParameterValueException';
    throw error;
  }
}
