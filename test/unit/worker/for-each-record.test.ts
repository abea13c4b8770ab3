/** forEachRecord: each SQS body parsed with the queue's schema; a failure (malformed or thrown) fails its record alone. */
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { sendMessageSchema, type SendMessage } from '#shared/domain/messages';
import { forEachRecord, MalformedMessage, parseBody } from '#shared/doors/worker/for-each-record';

process.env.LOG_LEVEL = 'silent';

const EMAIL = 'msg_01JD3QZ8X9K2M4N6P8R0S2T4V6';
const OTHER = 'msg_01JD3QZ8X9K2M4N6P8R0S2T4V7';

function event(...bodies: string[]): SQSEvent {
  return {
    Records: bodies.map(
      (body, index) =>
        ({
          messageId: `m${index}`,
          receiptHandle: `r${index}`,
          body,
          attributes: { ApproximateReceiveCount: '1' },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:q',
          awsRegion: 'us-east-1',
        }) as unknown as SQSRecord,
    ),
  };
}

describe('forEachRecord with a schema', () => {
  it('hands the handler the parsed message (unknown keys dropped) and its record', async () => {
    const seen: [SendMessage, string][] = [];
    const handler = forEachRecord('test', sendMessageSchema, async (message, record) => void seen.push([message, record.messageId]));
    const result = await handler(event(JSON.stringify({ email_id: EMAIL, schedule_version: 3, extra: true })));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual([[{ email_id: EMAIL, schedule_version: 3 }, 'm0']]);
  });

  it('fails a malformed record alone, without calling the handler for it; the others succeed', async () => {
    const handled: string[] = [];
    const handler = forEachRecord('test', sendMessageSchema, async (message) => void handled.push(message.email_id));
    const result = await handler(
      event(
        JSON.stringify({ email_id: EMAIL }),
        'not json',
        JSON.stringify({ email_id: 'msg_nope' }),
        JSON.stringify({ email_id: EMAIL, schedule_version: 1.5 }),
        '{"this is": "poison"}',
        JSON.stringify({ email_id: OTHER, schedule_version: 2 }),
      ),
    );
    expect(result.batchItemFailures).toEqual([
      { itemIdentifier: 'm1' },
      { itemIdentifier: 'm2' },
      { itemIdentifier: 'm3' },
      { itemIdentifier: 'm4' },
    ]);
    expect(handled.sort()).toEqual([EMAIL, OTHER]);
  });

  it('fails a record whose handler throws, alone', async () => {
    const handler = forEachRecord('test', sendMessageSchema, async (message) => {
      if (message.email_id === OTHER) throw new Error('transient');
    });
    const result = await handler(
      event(JSON.stringify({ email_id: EMAIL }), JSON.stringify({ email_id: OTHER }), JSON.stringify({ email_id: EMAIL })),
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
  });

  it('answers no failures for an empty batch', async () => {
    expect(await forEachRecord('test', sendMessageSchema, async () => undefined)(event())).toEqual({ batchItemFailures: [] });
  });
});

describe('parseBody', () => {
  it('throws MalformedMessage naming the failing field', () => {
    expect(() => parseBody(sendMessageSchema, '{')).toThrow(new MalformedMessage('body is not JSON'));
    expect(() => parseBody(sendMessageSchema, JSON.stringify({ email_id: EMAIL, schedule_version: 'x' }))).toThrow(/schedule_version/);
    expect(() => parseBody(sendMessageSchema, 'null')).toThrow(MalformedMessage);
  });
});
