/**
 * forEachStreamBatch: each record decoded by the worker's reader (the handler sees changes), the first
 * record not done reported, a record that stops the batch bisected out when it leads a batch of several,
 * a malformed record skipped when its reader says so.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { MalformedImage, type StreamReader } from '#shared/adapters/store/stream-record';
import { forEachStreamBatch, PoisonRecordError } from '#shared/doors/worker/for-each-stream-record';
import { inserted } from '../../support/stream-records';

process.env.LOG_LEVEL = 'silent';

/** A reader of `{id}` items: their ids as changes; an item with `bad` is malformed. */
const ids = (onMalformed: 'stop' | 'skip'): StreamReader<string> => ({
  onMalformed,
  changesOf: (write) => {
    if (write.newImage?.bad) throw new MalformedImage('bad: not an id');
    return typeof write.newImage?.id === 'string' ? [write.newImage.id] : [];
  },
});

const record = (seq: string, image: Record<string, unknown>) => inserted(image, seq);

describe('forEachStreamBatch', () => {
  it('hands the handler each record decoded (sequence number, event id, changes) and reports the first record not done', async () => {
    const seen: unknown[] = [];
    const handler = forEachStreamBatch('test', ids('stop'), async (records) => {
      seen.push(...records);
      return { done: 1 };
    });
    const response = await handler({ Records: [record('1', { id: 'a', n: 2, m: { x: ['y'] } }), record('2', { other: 'b' })] });
    expect(seen).toEqual([
      { sequenceNumber: '000000000000000000001', eventId: 'ev-1', changes: ['a'] },
      { sequenceNumber: '000000000000000000002', eventId: 'ev-2', changes: [] },
    ]);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '000000000000000000002' }] });
    const all = forEachStreamBatch('test', ids('stop'), async (records) => ({ done: records.length }));
    expect(await all({ Records: [record('1', { id: 'a' })] })).toEqual({ batchItemFailures: [] });
  });

  it('throws (so the event source bisects) when a record that stops the batch leads a batch of several, and reports it when alone', async () => {
    const handler = forEachStreamBatch('test', ids('stop'), async (records) => ({ done: records.length }));
    await expect(handler({ Records: [record('1', { bad: true }), record('2', { id: 'b' })] })).rejects.toThrow(PoisonRecordError);
    expect(await handler({ Records: [record('1', { bad: true })] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '000000000000000000001' }],
    });
    // A transient failure at the head is a plain partial failure: retry from there, no bisection.
    const transient = forEachStreamBatch('test', ids('stop'), async () => ({ done: 0 }));
    expect(await transient({ Records: [record('1', { id: 'a' }), record('2', { id: 'b' })] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '000000000000000000001' }],
    });
  });

  it('stops before an unreadable record (an image that does not unmarshall, no sequence number) whatever the reader', async () => {
    const seen: number[] = [];
    const handler = forEachStreamBatch('test', ids('skip'), async (records) => {
      seen.push(records.length);
      return { done: records.length };
    });
    const broken: DynamoDBRecord = {
      eventID: 'e2',
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: '2', NewImage: { bad: { X: 'nope' } as any } },
    };
    expect(await handler({ Records: [record('1', { id: 'a' }), broken, record('3', { id: 'c' })] })).toEqual({
      batchItemFailures: [{ itemIdentifier: '2' }],
    });
    const unnumbered: DynamoDBRecord = { eventID: 'e5', eventName: 'INSERT', dynamodb: { NewImage: { id: { S: 'e' } } } };
    expect(await handler({ Records: [record('4', { id: 'd' }), unnumbered] })).toEqual({ batchItemFailures: [{ itemIdentifier: '' }] });
    expect(seen).toEqual([1, 1]);
  });

  it('passes a malformed record as a record without changes when its reader skips them', async () => {
    const seen: string[][] = [];
    const handler = forEachStreamBatch('test', ids('skip'), async (records) => {
      seen.push(...records.map((r) => r.changes));
      return { done: records.length };
    });
    expect(await handler({ Records: [record('1', { id: 'a' }), record('2', { bad: true }), record('3', { id: 'c' })] })).toEqual({
      batchItemFailures: [],
    });
    expect(seen).toEqual([['a'], [], ['c']]);
  });

  it('logs a malformed record with its keys and what failed, never its content', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    process.env.LOG_LEVEL = 'info';
    try {
      const handler = forEachStreamBatch('test', ids('skip'), async (records) => ({ done: records.length }));
      await handler({ Records: [record('7', { PK: 'EMAIL#msg_1', SK: 'EMAIL', bad: 'secret-content' })] });
    } finally {
      process.env.LOG_LEVEL = 'silent';
      spy.mockRestore();
    }
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      message: 'test: malformed stream record (skipped)',
      keys: 'EMAIL#msg_1 / EMAIL',
      event_id: 'ev-7',
      error_message: 'bad: not an id',
    });
    expect(lines[0]).not.toContain('secret-content');
  });
});
