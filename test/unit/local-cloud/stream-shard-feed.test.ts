/**
 * The stream mappings' shared read of a shard (localstack/cloud/streams/stream-shard-feed.ts), against a scripted
 * stream that counts its calls: each mapping gets exactly what reading the shard itself would give it
 * (every record after its position, in order, to the shard's end), while a quiet shard is read once per
 * interval and a record once, whoever asks.
 */
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { StreamShardFeed, type FeedRead, type Position } from '#localstack/cloud/streams/stream-shard-feed';
import { ScriptedStream } from '../../support/scripted-stream';

const SHARD = 'shardId-1';
const TRIM: Position = { type: 'TRIM_HORIZON' };
const afterSequence = (sequenceNumber: string): Position => ({ type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber });
const ids = (read: FeedRead) => read.records.map((record) => record.dynamodb!.NewImage!.id!.S!);
const sequenceOf = (record: _Record) => record.dynamodb!.SequenceNumber!;

function setup(options: { minIntervalMs?: number; maxRecords?: number } = {}) {
  const stream = new ScriptedStream();
  stream.addShard(SHARD);
  const feed = new StreamShardFeed({
    streams: stream.client(),
    streamArn: 'arn:scripted',
    minIntervalMs: options.minIntervalMs ?? 60_000,
    maxRecords: options.maxRecords,
  });
  /** A mapping reading the shard from `start` as the poller does: from after the last record it was given. */
  const mapping = (name: string, start: Position = TRIM) => {
    let position = start;
    const seen: string[] = [];
    return {
      seen,
      async read(): Promise<FeedRead> {
        const read = await feed.read(name, SHARD, position);
        seen.push(...ids(read));
        const last = read.records.at(-1);
        if (last) position = afterSequence(sequenceOf(last));
        return read;
      },
    };
  };
  return {
    stream,
    feed,
    mapping,
    reads: () => stream.calls.GetRecordsCommand ?? 0,
    iterators: () => stream.calls.GetShardIteratorCommand ?? 0,
  };
}

describe('StreamShardFeed', () => {
  it('hands every mapping every record in order, reading each record from the shard once', async () => {
    const { stream, mapping, reads } = setup({ minIntervalMs: 0 });
    for (const id of ['a', 'b', 'c']) stream.put(SHARD, id);
    const mappings = [mapping('one'), mapping('two'), mapping('three')];
    for (const m of mappings) await m.read();
    expect(reads()).toBe(1);
    stream.put(SHARD, 'd');
    stream.put(SHARD, 'e');
    for (const m of mappings) await m.read();
    // The first mapping at the log's end read the shard; the others were answered from the log.
    expect(reads()).toBe(2);
    for (const m of mappings) expect(m.seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('reads a quiet shard at most once per interval, whoever asks, and says when it may read again', async () => {
    const { mapping, reads } = setup({ minIntervalMs: 60_000 });
    const mappings = [mapping('one'), mapping('two'), mapping('three')];
    const first = await mappings[0]!.read();
    expect(first).toEqual({ records: [], exhausted: false });
    for (let round = 0; round < 3; round++) {
      for (const m of mappings) {
        const read = await m.read();
        expect(read.records).toEqual([]);
        expect(read.waitMs).toBeGreaterThan(50_000);
        expect(read.waitMs).toBeLessThanOrEqual(60_000);
      }
    }
    expect(reads()).toBe(1);
  });

  it('mappings asking at once share one GetRecords', async () => {
    const { stream, mapping, reads } = setup({ minIntervalMs: 0 });
    stream.put(SHARD, 'a');
    const mappings = [mapping('one'), mapping('two'), mapping('three'), mapping('four')];
    await Promise.all(mappings.map((m) => m.read()));
    expect(reads()).toBe(1);
    for (const m of mappings) expect(m.seen).toEqual(['a']);
  });

  it('a mapping behind the log (an older checkpoint) reads alone until it reaches the log, then from it', async () => {
    const { stream, mapping, reads } = setup({ minIntervalMs: 0 });
    for (const id of ['a', 'b', 'c', 'd']) stream.put(SHARD, id);
    const [a, b] = stream.shards[0]!.records.map(sequenceOf);
    const ahead = mapping('ahead', afterSequence(b!));
    await ahead.read();
    expect(ahead.seen).toEqual(['c', 'd']);
    const behind = mapping('behind', afterSequence(a!));
    await behind.read();
    // Its own iterator from its checkpoint: everything after it, as its own read would give.
    expect(behind.seen).toEqual(['b', 'c', 'd']);
    expect(reads()).toBe(2);
    // Now at the log's end with the other mapping: one read of the shard for both.
    stream.put(SHARD, 'e');
    await ahead.read();
    await behind.read();
    expect(reads()).toBe(3);
    expect(ahead.seen).toEqual(['c', 'd', 'e']);
    expect(behind.seen).toEqual(['b', 'c', 'd', 'e']);
  });

  it('a mapping at LATEST gets only what comes after it started', async () => {
    const { stream, mapping } = setup({ minIntervalMs: 0 });
    stream.put(SHARD, 'old');
    const horizon = mapping('horizon');
    await horizon.read();
    const latest = mapping('latest', { type: 'LATEST' });
    expect((await latest.read()).records).toEqual([]);
    stream.put(SHARD, 'new');
    await latest.read();
    await horizon.read();
    expect(latest.seen).toEqual(['new']);
    expect(horizon.seen).toEqual(['old', 'new']);
  });

  it('a closed shard is exhausted for each mapping once it has had the last record, not before', async () => {
    const { stream, mapping } = setup({ minIntervalMs: 0 });
    stream.put(SHARD, 'a');
    const one = mapping('one');
    const two = mapping('two');
    expect(await one.read()).toMatchObject({ exhausted: false });
    stream.put(SHARD, 'b');
    stream.close(SHARD);
    let read = await one.read();
    expect(ids(read)).toEqual(['b']);
    if (!read.exhausted) read = await one.read();
    expect(read).toEqual({ records: [], exhausted: true });
    // The second mapping gets both records from the log, and is told the shard ended with the last.
    const first = await two.read();
    expect(ids(first)).toEqual(['a', 'b']);
    expect(first.exhausted).toBe(true);
  });

  it('a mapping left more than maxRecords behind still gets every record (reading alone), and the log keeps no more', async () => {
    const { stream, mapping, reads } = setup({ minIntervalMs: 0, maxRecords: 3 });
    const fast = mapping('fast');
    const slow = mapping('slow');
    stream.put(SHARD, 'r0');
    await slow.read();
    for (let i = 1; i <= 8; i++) {
      stream.put(SHARD, `r${i}`);
      await fast.read();
    }
    const before = reads();
    await slow.read();
    // The log kept the last 3: the slow mapping read the shard itself, from its own position.
    expect(reads()).toBe(before + 1);
    expect(slow.seen).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8']);
    expect(fast.seen).toEqual(slow.seen);
  });

  it('a log no mapping reads from (its last one released) starts again where the next mapping stands', async () => {
    const { stream, feed, mapping, reads } = setup({ minIntervalMs: 0, maxRecords: 2 });
    for (const id of ['a', 'b', 'c']) stream.put(SHARD, id);
    const one = mapping('one');
    await one.read();
    // Past maxRecords, what 'one' read is dropped; then 'one' stops reading.
    feed.release('one', SHARD);
    const [a] = stream.shards[0]!.records.map(sequenceOf);
    const two = mapping('two', afterSequence(a!));
    const three = mapping('three', afterSequence(a!));
    await two.read();
    await three.read();
    // 'two' started the log at its position, and 'three' was answered from it (a mapping still held
    // by the log would have left both reading alone: 3 reads).
    expect(reads()).toBe(2);
    expect(two.seen).toEqual(['b', 'c']);
    expect(three.seen).toEqual(['b', 'c']);
  });

  it('an expired iterator is opened again after the last record read, losing nothing', async () => {
    const { stream, mapping, iterators } = setup({ minIntervalMs: 0 });
    stream.put(SHARD, 'a');
    const one = mapping('one');
    await one.read();
    const client = stream.client();
    const send = client.send.bind(client);
    let expire = true;
    // The next GetRecords answers ExpiredIteratorException once, as after 15 minutes.
    const feed = new StreamShardFeed({
      streams: {
        send: (async (command: { constructor: { name: string } }) => {
          if (expire && command.constructor.name === 'GetRecordsCommand') {
            expire = false;
            throw Object.assign(new Error('expired'), { name: 'ExpiredIteratorException' });
          }
          return send(command as never);
        }) as never,
      },
      streamArn: 'arn:scripted',
      minIntervalMs: 0,
    });
    const first = await feed.read('x', SHARD, TRIM);
    stream.put(SHARD, 'b');
    const second = await feed.read('x', SHARD, afterSequence(sequenceOf(first.records.at(-1)!)));
    expect([...ids(first), ...ids(second)]).toEqual(['a', 'b']);
    expect(iterators()).toBeGreaterThanOrEqual(3);
  });
});

describe('StreamShardFeed when a mapping stops', () => {
  it('a mapping that stops while a shared read is under way is answered at once, and the read failing later is not an unhandled rejection', async () => {
    let fail: (error: Error) => void = () => undefined;
    const hanging = new Promise<never>((_resolve, reject) => (fail = reject));
    const feed = new StreamShardFeed({
      streams: {
        send: (async (command: { constructor: { name: string } }) =>
          command.constructor.name === 'GetShardIteratorCommand' ? { ShardIterator: 'it' } : hanging) as never,
      },
      streamArn: 'arn:scripted',
      minIntervalMs: 0,
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stop = new AbortController();
      const reading = feed.read('one', SHARD, TRIM, stop.signal);
      await new Promise((resolve) => setTimeout(resolve, 10));
      stop.abort();
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
      // Stopped already: a mapping asking now (a read of its own, no shared one under way) is refused
      // without waiting, and the read it started is left to fail alone.
      await expect(feed.read('two', 'shardId-2', TRIM, stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
      fail(new Error('connection refused'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
