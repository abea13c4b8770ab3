/**
 * One poller per DynamoDB Streams event-source mapping, as Lambda runs them (STREAM_WORKERS in
 * infra/definitions/stream-workers.ts; the mapping's settings: ./stream-mapping.ts), against DynamoDB Local's stream:
 *
 *  - shards: DescribeStream lists them; each shard is read in order by a loop of its own (shards in
 *    parallel, one batch per shard at a time); a child shard starts only once its parent is read to
 *    its end, and a shard that closes (DynamoDB Local rolls shards every 4 h) triggers a new listing;
 *  - reading: GetShardIterator (TRIM_HORIZON or LATEST for a new mapping, AFTER_SEQUENCE_NUMBER from a
 *    checkpoint), then GetRecords, at once again while records come, else every 250 ms (Lambda's base
 *    rate of 4 reads a second); the mappings of a stream share those reads (./stream-shard-feed.ts);
 *    each record as Lambda hands it over (./stream-records.ts);
 *  - filters: records matching none of the definition's patterns are dropped and checkpointed, never
 *    handed to the function (Lambda's event filtering, ./stream-filters.ts);
 *  - batches: up to batchSize matching records, invoked at once or after maxBatchingWindowMs;
 *  - the function gets a real DynamoDBStreamEvent; `batchItemFailures` checkpoints before the first
 *    failed record and retries from it; a throw (or a timeout) retries the batch, bisected if asked;
 *    after retryAttempts retries the batch is described on the on-failure queue (Lambda's record shape)
 *    and the shard moves on (./stream-delivery.ts);
 *  - checkpoints: per shard, the last sequence number processed, in DATA_DIR/stream-checkpoints.json
 *    (written atomically after every batch), so a restart resumes instead of replaying the stream.
 *    Without a file (in-memory cloud) they live in memory (./stream-checkpoints.ts);
 *  - shards as AWS has them (`streamShards`, LOCAL_STREAM_SHARDS): DynamoDB Local's stream has one shard,
 *    where a table on AWS has about one per partition, each delivering batches of its own. With N, the
 *    records read are spread over N lanes by their partition key (./stream-lanes.ts: one key's records stay
 *    in one lane, in order) and each lane is handed to the function as its own batches, the lanes at once,
 *    so the functions see the batch sizes and counts that many shards give. The lanes share the real
 *    shard's batching window and checkpoint (written once every lane's records are processed: a restart
 *    hands them all again, as a shard's retry does).
 */
import { DescribeStreamCommand, type Shard } from '@aws-sdk/client-dynamodb-streams';
import type { ShardCheckpoint } from './stream-checkpoints';
import { StreamDelivery, type Pending } from './stream-delivery';
import { matchesFilters } from './stream-filters';
import type { StreamPollerOptions } from './stream-mapping';
import { toLambdaRecord } from './stream-records';
import { STREAM_BASE_POLL_MS, StreamShardFeed, type Position } from './stream-shard-feed';

/** Where a shard's loop is: how far it read, and the records waiting to be handed to the function. */
interface ShardRead {
  shardId: string;
  start: Position;
  lastRead: string | undefined;
  /** The shard is closed and every record of it was read. */
  exhausted: boolean;
  /** How long the feed asks to wait before the next read of an empty shard. */
  waitMs: number | undefined;
  lastRecordAt: number;
  buffer: Pending[];
  firstBufferedAt: number;
  /** Filtered-out records read while nothing was buffered, not yet checkpointed. */
  skippedThrough: string | undefined;
}

export class StreamPoller {
  private running = false;
  private readonly abort = new AbortController();
  private discoveryLoop: Promise<void> | null = null;
  private readonly readers = new Map<string, Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  private wakeDiscovery: (() => void) | null = null;
  private freshMapping = false;
  private firstListing = true;
  private error: string | null = null;
  /** Counters for /health, tests and benchmarks. */
  readonly stats = { invocations: 0, records: 0, filteredOut: 0, failedBatches: 0, shards: 0 };

  private readonly feed: StreamShardFeed;
  private readonly delivery: StreamDelivery;

  constructor(private readonly options: StreamPollerOptions) {
    this.feed =
      options.feed ??
      new StreamShardFeed({
        streams: options.streams,
        streamArn: options.streamArn,
        minIntervalMs: options.pollIntervalMs,
        log: options.log,
      });
    this.delivery = new StreamDelivery(options, {
      running: () => this.running,
      sleep: (ms) => this.sleep(ms),
      setError: (message) => this.setError(message),
      saveCheckpoint: (shardId, checkpoint) => this.saveCheckpoint(shardId, checkpoint),
      stats: this.stats,
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.freshMapping = !this.options.checkpoints.has(this.options.name, this.options.streamArn);
    this.discoveryLoop = this.discover();
  }

  isRunning(): boolean {
    return this.running;
  }

  /** 'up', or 'down: <why>' while reading the stream fails. */
  status(): string {
    if (!this.running) return 'down: stopped';
    return this.error ? `down: ${this.error}` : 'up';
  }

  /** Stops reading; a batch being handled finishes (and is checkpointed) first. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    for (const wake of [...this.sleepers]) wake();
    await this.discoveryLoop;
    await Promise.allSettled([...this.readers.values()]);
    await this.options.checkpoints.persist();
  }

  private get checkpoints(): Record<string, ShardCheckpoint> {
    return this.options.checkpoints.shards(this.options.name, this.options.streamArn);
  }

  private async saveCheckpoint(shardId: string, checkpoint: ShardCheckpoint): Promise<void> {
    await this.options.checkpoints.save(this.options.name, this.options.streamArn, shardId, checkpoint);
  }

  private sleep(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  private setError(message: string): void {
    if (this.error !== message) this.options.log(`${this.options.name}: ${message}`);
    this.error = message;
  }

  // -- shards ------------------------------------------------------------------------------------

  private async listShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const result = await this.options.streams.send(
        new DescribeStreamCommand({ StreamArn: this.options.streamArn, ExclusiveStartShardId: start }),
        {
          abortSignal: this.abort.signal,
        },
      );
      shards.push(...(result.StreamDescription?.Shards ?? []));
      start = result.StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  private async discover(): Promise<void> {
    const interval = this.options.discoveryIntervalMs ?? 5000;
    while (this.running) {
      try {
        await this.startReaders(await this.listShards());
        this.error = null;
      } catch (error) {
        if (!this.running) return;
        this.setError(`describe stream failed: ${(error as Error).message}`);
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.sleepers.delete(done);
          this.wakeDiscovery = null;
          resolve();
        };
        const timer = setTimeout(done, this.error ? Math.min(interval, 1000) : interval);
        this.sleepers.add(done);
        this.wakeDiscovery = done;
      });
    }
  }

  private async startReaders(shards: Shard[]): Promise<void> {
    const listed = new Map(shards.map((shard) => [shard.ShardId!, shard]));
    const checkpoints = this.checkpoints;
    const first = this.firstListing;
    this.firstListing = false;
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (this.readers.has(id) || checkpoints[id]?.done) continue;
      // Lambda reads a child only after its parent: records of one item stay in order across a rollover.
      const parent = shard.ParentShardId;
      if (parent && listed.has(parent) && !checkpoints[parent]?.done) continue;
      const saved = checkpoints[id]?.sequenceNumber;
      let position: Position;
      if (saved) position = { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: saved };
      else if (first && this.freshMapping && this.options.startingPosition === 'LATEST') {
        // A new LATEST mapping skips what is already in the stream, closed shards included.
        if (shard.SequenceNumberRange?.EndingSequenceNumber) {
          await this.saveCheckpoint(id, { done: true });
          continue;
        }
        position = { type: 'LATEST' };
      } else position = { type: 'TRIM_HORIZON' };
      const reader = this.readShard(id, position)
        .catch((error: unknown) => this.setError(`shard ${id} failed: ${(error as Error).message}`))
        .finally(() => {
          this.feed.release(this.options.name, id);
          this.readers.delete(id);
          this.stats.shards = this.readers.size;
          // A shard read to its end may have children waiting.
          this.wakeDiscovery?.();
        });
      this.readers.set(id, reader);
      this.stats.shards = this.readers.size;
    }
    await this.options.checkpoints.retain(this.options.name, this.options.streamArn, new Set([...listed.keys(), ...this.readers.keys()]));
  }

  // -- reading -----------------------------------------------------------------------------------

  private async readShard(shardId: string, start: Position): Promise<void> {
    const lanes = this.options.streamShards ?? 1;
    // With lanes, the buffer holds up to a batch for each (the batches the shards would each make).
    const bufferCap = this.options.batchSize * lanes;
    const shard: ShardRead = {
      shardId,
      start,
      lastRead: start.type === 'AFTER_SEQUENCE_NUMBER' ? start.sequenceNumber : undefined,
      exhausted: false,
      waitMs: undefined,
      lastRecordAt: 0,
      buffer: [],
      firstBufferedAt: 0,
      skippedThrough: undefined,
    };

    while (this.running) {
      const read = !shard.exhausted && shard.buffer.length < bufferCap ? await this.readRecords(shard) : 0;
      if (read === 'stopped') return;
      if (read === 'failed') continue;

      if (this.batchReady(shard, bufferCap)) {
        const batch = shard.buffer.splice(0, bufferCap);
        shard.firstBufferedAt = shard.buffer.length ? Date.now() : 0;
        shard.skippedThrough = undefined;
        if (!(await (lanes > 1 ? this.delivery.deliverLanes(shardId, batch, lanes) : this.delivery.deliver(shardId, batch)))) return;
        continue;
      }
      if (shard.skippedThrough) {
        await this.saveCheckpoint(shardId, { sequenceNumber: shard.skippedThrough });
        shard.skippedThrough = undefined;
      }
      if (shard.exhausted && shard.buffer.length === 0) {
        // Closed and read to its end: its children may start.
        await this.saveCheckpoint(shardId, { ...(shard.lastRead ? { sequenceNumber: shard.lastRead } : {}), done: true });
        return;
      }
      if (read === 0 || shard.buffer.length > 0) await this.sleep(this.pollWait(shard));
    }
  }

  /**
   * One read of the shard (through the feed) into its buffer, the filtered-out records checkpointed past:
   * how many records it read, 'failed' (after the wait a failed read earns) or 'stopped'.
   */
  private async readRecords(shard: ShardRead): Promise<number | 'failed' | 'stopped'> {
    const { filters, name } = this.options;
    let read = 0;
    try {
      const position: Position = shard.lastRead ? { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: shard.lastRead } : shard.start;
      const result = await this.feed.read(name, shard.shardId, position, this.abort.signal);
      // Converted before anything moves: a record that cannot be converted stops the shard here
      // (reported in /health, read again) rather than being skipped.
      const records = result.records.map((raw) => ({
        sequenceNumber: raw.dynamodb?.SequenceNumber ?? '',
        record: toLambdaRecord(raw, this.options.streamArn),
      }));
      shard.exhausted = result.exhausted;
      shard.waitMs = result.waitMs;
      this.error = null;
      if (records.length > 0) shard.lastRecordAt = Date.now();
      for (const { sequenceNumber, record } of records) {
        read++;
        shard.lastRead = sequenceNumber;
        if (matchesFilters(filters, record)) {
          shard.buffer.push({ record, sequenceNumber, checkpointTo: sequenceNumber });
          if (!shard.firstBufferedAt) shard.firstBufferedAt = Date.now();
        } else {
          this.stats.filteredOut++;
          if (shard.buffer.length) shard.buffer[shard.buffer.length - 1]!.checkpointTo = sequenceNumber;
          else shard.skippedThrough = sequenceNumber;
        }
      }
      return read;
    } catch (error) {
      if (!this.running) return 'stopped';
      this.setError(`GetRecords on ${shard.shardId} failed: ${(error as Error).message}`);
      await this.sleep(500);
      return 'failed';
    }
  }

  /** A batch goes to the function: the buffer is full, or its batching window is over, or the shard has no more. */
  private batchReady(shard: ShardRead, bufferCap: number): boolean {
    const windowOver = shard.firstBufferedAt > 0 && Date.now() - shard.firstBufferedAt >= this.options.maxBatchingWindowMs;
    return shard.buffer.length >= bufferCap || (shard.buffer.length > 0 && (windowOver || shard.exhausted));
  }

  /** How long to wait before the next read: the busy or idle interval, the feed's wait, the batching window's rest. */
  private pollWait(shard: ShardRead): number {
    const busyInterval = this.options.pollIntervalMs ?? STREAM_BASE_POLL_MS;
    const idleInterval = this.options.idlePollIntervalMs ?? STREAM_BASE_POLL_MS;
    const busyFor = this.options.busyForMs ?? 1000;
    // An empty shard the other mappings read a moment ago is read again when the feed allows it.
    const pollInterval = Math.min(Date.now() - shard.lastRecordAt < busyFor ? busyInterval : idleInterval, shard.waitMs ?? Infinity);
    const windowLeft = shard.buffer.length
      ? Math.max(1, this.options.maxBatchingWindowMs - (Date.now() - shard.firstBufferedAt))
      : pollInterval;
    return Math.min(pollInterval, windowLeft);
  }
}
