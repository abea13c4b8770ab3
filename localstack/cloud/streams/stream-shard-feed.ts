/**
 * One read of each shard for every mapping of a stream (./stream-poller.ts). On AWS each event source
 * mapping reads a shard itself, 4 times a second when it is quiet; on the local cloud the table's four
 * stream mappings would then make 16 GetRecords a second of an idle stream, each costing DynamoDB Local
 * and the workers thread a few milliseconds of CPU, and would each decode the same records. Here the
 * mappings of a stream share one log per shard: a record is read once and handed to each mapping from
 * the log, and an empty shard is read at most once per `minIntervalMs` whoever asks. What a mapping sees
 * (which records, in which order, from which position) is what its own reads would have given it.
 *
 * A mapping reads from its own position (after the last sequence number it read, or its starting
 * position). A position inside the log is answered from it; the log starts at the position of the first
 * mapping that asks. A mapping elsewhere (behind the log after a restart with older checkpoints, ahead of
 * it, or at LATEST) reads the shard with an iterator of its own until its position is in the log. The
 * log keeps up to `maxRecords`, then drops what every mapping has read (a mapping left further behind
 * reads alone); a log no mapping reads from starts again where the next mapping stands.
 */
import {
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';

export type Position = { type: 'TRIM_HORIZON' | 'LATEST' } | { type: 'AFTER_SEQUENCE_NUMBER'; sequenceNumber: string };

export interface FeedRead {
  /** The records after the position, oldest first (up to 1,000). */
  records: _Record[];
  /** The shard is closed and nothing follows these records. */
  exhausted: boolean;
  /** Set when nothing was read because the shard was read less than the interval ago: when it may be read again. */
  waitMs?: number;
}

export interface StreamShardFeedOptions {
  streams: Pick<DynamoDBStreamsClient, 'send'>;
  streamArn: string;
  /** Least time between two reads of a shard that returned nothing (default STREAM_BASE_POLL_MS). */
  minIntervalMs?: number;
  /** Most records a shard's log keeps (default 2,000). */
  maxRecords?: number;
  log?: (message: string) => void;
}

/** A shard read with an iterator: the shared log's tail, or a mapping's own. */
interface Tail {
  /** null: not opened yet; undefined: the shard is closed and read to its end. */
  iterator: string | null | undefined;
}

interface ShardLog extends Tail {
  /** The position the log's first record follows. */
  anchor: Position;
  records: _Record[];
  /** Index of records[0] since the log was anchored. */
  base: number;
  indexBySequence: Map<string, number>;
  lastEmptyReadAt: number;
  reading: Promise<void> | null;
  /** Each mapping reading from the log: the index of the next record it needs. */
  readers: Map<string, number>;
}

/**
 * Least time between two reads of a quiet shard: Lambda's base rate of 4 reads a second ("Lambda polls
 * shards in your DynamoDB stream for records at a base rate of four times per second",
 * https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html). The pollers wait as long by default.
 */
export const STREAM_BASE_POLL_MS = 250;
const MAX_PER_READ = 1000;
const sequenceOf = (record: _Record) => record.dynamodb?.SequenceNumber ?? '';

export class StreamShardFeed {
  private readonly logs = new Map<string, ShardLog>();
  private readonly own = new Map<string, Tail & { position: Position }>();

  constructor(private readonly options: StreamShardFeedOptions) {}

  /** The records after `position` in the shard, for the mapping `reader`. */
  async read(reader: string, shardId: string, position: Position, signal?: AbortSignal): Promise<FeedRead> {
    const log = this.logOf(shardId, position);
    const at = indexIn(log, position);
    if (at === undefined) {
      log.readers.delete(reader);
      return this.readAlone(reader, shardId, position, signal);
    }
    this.own.delete(ownKey(reader, shardId));
    log.readers.set(reader, at);
    let waitMs: number | undefined;
    if (at >= log.base + log.records.length && log.iterator !== undefined) {
      if (log.reading) await abortable(log.reading, signal);
      else {
        const since = Date.now() - log.lastEmptyReadAt;
        const interval = this.options.minIntervalMs ?? STREAM_BASE_POLL_MS;
        if (since < interval) waitMs = interval - since;
        else await abortable(this.readLog(shardId, log), signal);
      }
    }
    const records = log.records.slice(at - log.base, at - log.base + MAX_PER_READ);
    log.readers.set(reader, at + records.length);
    this.trim(log);
    const exhausted = log.iterator === undefined && at + records.length >= log.base + log.records.length;
    return { records, exhausted, ...(records.length === 0 && !exhausted && waitMs !== undefined ? { waitMs } : {}) };
  }

  /** The mapping stopped reading the shard: the log no longer keeps records for it. */
  release(reader: string, shardId: string): void {
    this.logs.get(shardId)?.readers.delete(reader);
    this.own.delete(ownKey(reader, shardId));
  }

  /** The shard's log; a log no mapping reads from (or never read) starts again at `position`. */
  private logOf(shardId: string, position: Position): ShardLog {
    const log = this.logs.get(shardId);
    const idle = log && log.readers.size === 0 && !log.reading && indexIn(log, position) === undefined;
    // A log never starts at LATEST (each mapping's LATEST is its own moment): such a mapping reads alone.
    if (log && !idle) return log;
    if (position.type === 'LATEST') return log ?? newLog(position);
    const started = newLog(position);
    this.logs.set(shardId, started);
    return started;
  }

  /** One GetRecords for everyone waiting on the log's tail. */
  private readLog(shardId: string, log: ShardLog): Promise<void> {
    log.reading = (async () => {
      const last = log.records[log.records.length - 1];
      const from: Position = last ? { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: sequenceOf(last) } : log.anchor;
      const records = await this.next(shardId, log, from);
      for (const record of records) {
        log.indexBySequence.set(sequenceOf(record), log.base + log.records.length);
        log.records.push(record);
      }
      if (records.length === 0) log.lastEmptyReadAt = Date.now();
    })().finally(() => {
      log.reading = null;
    });
    return log.reading;
  }

  /** A mapping whose position is not in the log reads the shard with an iterator of its own. */
  private async readAlone(reader: string, shardId: string, position: Position, signal?: AbortSignal): Promise<FeedRead> {
    const key = ownKey(reader, shardId);
    let tail = this.own.get(key);
    if (!tail || !samePosition(tail.position, position)) {
      tail = { iterator: null, position };
      this.own.set(key, tail);
    }
    const records = await abortable(this.next(shardId, tail, position), signal);
    const last = records[records.length - 1];
    if (last) tail.position = { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: sequenceOf(last) };
    return { records, exhausted: tail.iterator === undefined };
  }

  /** GetRecords on the tail's iterator (opened at `from` when it has none or it expired). */
  private async next(shardId: string, tail: Tail, from: Position): Promise<_Record[]> {
    for (;;) {
      if (tail.iterator === null) tail.iterator = await this.iterator(shardId, from);
      if (tail.iterator === undefined) return [];
      try {
        const result = await this.options.streams.send(new GetRecordsCommand({ ShardIterator: tail.iterator, Limit: MAX_PER_READ }));
        tail.iterator = result.NextShardIterator;
        return result.Records ?? [];
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'ExpiredIteratorException') {
          tail.iterator = null;
          continue;
        }
        if (name === 'TrimmedDataAccessException') {
          // What came between is gone: go on from the oldest record.
          tail.iterator = await this.iterator(shardId, { type: 'TRIM_HORIZON' });
          continue;
        }
        throw error;
      }
    }
  }

  private async iterator(shardId: string, position: Position): Promise<string | undefined> {
    try {
      const result = await this.options.streams.send(
        new GetShardIteratorCommand({
          StreamArn: this.options.streamArn,
          ShardId: shardId,
          ShardIteratorType: position.type as ShardIteratorType,
          ...(position.type === 'AFTER_SEQUENCE_NUMBER' ? { SequenceNumber: position.sequenceNumber } : {}),
        }),
      );
      return result.ShardIterator;
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TrimmedDataAccessException' && position.type === 'AFTER_SEQUENCE_NUMBER') {
        // Older than the stream keeps (24 h): what came between is gone; go on from the oldest record.
        this.options.log?.(`stream feed: ${position.sequenceNumber} of ${shardId} is trimmed; reading from the trim horizon`);
        return this.iterator(shardId, { type: 'TRIM_HORIZON' });
      }
      if (name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  }

  /**
   * Past `maxRecords`, drops the records every mapping of the log has read, and the oldest beyond
   * `maxRecords` (a mapping left behind them reads alone). Kept until then, they let a mapping that starts
   * late, or starts again, read from the log.
   */
  private trim(log: ShardLog): void {
    const max = this.options.maxRecords ?? 2_000;
    if (log.records.length <= max) return;
    const end = log.base + log.records.length;
    const keepFrom = Math.max(Math.min(end, ...log.readers.values()), end - max);
    const dropped = log.records.splice(0, keepFrom - log.base);
    for (const record of dropped) log.indexBySequence.delete(sequenceOf(record));
    if (dropped.length > 0) log.anchor = { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: sequenceOf(dropped[dropped.length - 1]!) };
    log.base = keepFrom;
    for (const [reader, at] of log.readers) if (at < keepFrom) log.readers.delete(reader);
  }
}

function newLog(anchor: Position): ShardLog {
  return {
    anchor,
    records: [],
    base: 0,
    indexBySequence: new Map(),
    iterator: null,
    lastEmptyReadAt: 0,
    reading: null,
    readers: new Map(),
  };
}

const ownKey = (reader: string, shardId: string) => `${reader}\n${shardId}`;

/** Where in the log the record after `position` is; undefined when the log does not cover it. */
function indexIn(log: ShardLog, position: Position): number | undefined {
  if (position.type === 'TRIM_HORIZON') return log.anchor.type === 'TRIM_HORIZON' ? log.base : undefined;
  const after = sequenceAfter(position);
  if (after === undefined) return undefined;
  const index = log.indexBySequence.get(after);
  if (index !== undefined) return index + 1;
  return sequenceAfter(log.anchor) === after ? log.base : undefined;
}

const sequenceAfter = (position: Position): string | undefined =>
  position.type === 'AFTER_SEQUENCE_NUMBER' ? position.sequenceNumber : undefined;

function samePosition(a: Position, b: Position): boolean {
  return a.type === b.type && sequenceAfter(a) === sequenceAfter(b);
}

/** The promise, or a rejection when the signal aborts first (a stopping mapping does not wait on a shared read). */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  // A shared read left by every mapping that waited on it must not fail unhandled (a thread-ending error).
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
