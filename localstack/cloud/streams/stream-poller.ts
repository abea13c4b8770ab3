/**
 * One poller per DynamoDB Streams event-source mapping, as Lambda runs them (STREAM_WORKERS in
 * infra/definitions/stream-workers.ts), against DynamoDB Local's stream:
 *
 *  - shards: DescribeStream lists them; each shard is read in order by a loop of its own (shards in
 *    parallel, one batch per shard at a time); a child shard starts only once its parent is read to
 *    its end, and a shard that closes (DynamoDB Local rolls shards every 4 h) triggers a new listing;
 *  - reading: GetShardIterator (TRIM_HORIZON or LATEST for a new mapping, AFTER_SEQUENCE_NUMBER from a
 *    checkpoint), then GetRecords, at once again while records come, else every 250 ms (Lambda's base
 *    rate of 4 reads a second); the mappings of a stream share those reads (./stream-shard-feed.ts);
 *  - filters: records matching none of the definition's patterns are dropped and checkpointed, never
 *    handed to the function (Lambda's event filtering);
 *  - batches: up to batchSize matching records, invoked at once or after maxBatchingWindowMs;
 *  - the function gets a real DynamoDBStreamEvent; `batchItemFailures` checkpoints before the first
 *    failed record and retries from it; a throw (or a timeout) retries the batch, bisected if asked;
 *    after retryAttempts retries the batch is described on the on-failure queue (Lambda's record shape)
 *    and the shard moves on;
 *  - checkpoints: per shard, the last sequence number processed, in DATA_DIR/stream-checkpoints.json
 *    (written atomically after every batch), so a restart resumes instead of replaying the stream.
 *    Without a file (in-memory cloud) they live in memory;
 *  - shards as AWS has them (`streamShards`, LOCAL_STREAM_SHARDS): DynamoDB Local's stream has one shard,
 *    where a table on AWS has about one per partition, each delivering batches of its own. With N, the
 *    records read are spread over N lanes by their partition key (./stream-lanes.ts: one key's records stay
 *    in one lane, in order) and each lane is handed to the function as its own batches, the lanes at once,
 *    so the functions see the batch sizes and counts that many shards give. The lanes share the real
 *    shard's batching window and checkpoint (written once every lane's records are processed: a restart
 *    hands them all again, as a shard's retry does).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import {
  DescribeStreamCommand,
  type AttributeValue as SdkAttributeValue,
  type DynamoDBStreamsClient,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { FilterPattern, FilterValue, StreamWorkerDefinition } from '#infra/definitions';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../constants';
import { invokeWithinTimeout } from '../lambda/lambda-timeout';
import { laneBatches, MAX_LANES_AT_ONCE } from './stream-lanes';
import { STREAM_BASE_POLL_MS, StreamShardFeed, type Position } from './stream-shard-feed';

// biome-ignore lint/suspicious/noConfusingVoidType: Lambda's contract (aws-lambda's own handler types): a handler resolves to a batch response or to nothing, and an async function returning nothing is Promise<void>
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** What Lambda sends to a stream mapping's on-failure destination for a batch it gave up on. */
export interface StreamBatchFailure {
  requestContext: { requestId: string; functionArn: string; condition: 'RetryAttemptsExhausted'; approximateInvokeCount: number };
  responseContext: { statusCode: number; executedVersion: string; functionError?: 'Unhandled' };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord?: string;
    approximateArrivalOfLastRecord?: string;
    batchSize: number;
    streamArn: string;
  };
}

/** The event source mapping's settings come from the stream worker's definition, as in CDK. */
type MappingSettings = Pick<
  StreamWorkerDefinition,
  | 'startingPosition'
  | 'batchSize'
  | 'maxBatchingWindowMs'
  | 'filters'
  | 'retryAttempts'
  | 'bisectBatchOnFunctionError'
  | 'reportBatchItemFailures'
  | 'timeoutSeconds'
>;

export interface StreamPollerOptions extends MappingSettings {
  name: string;
  streams: DynamoDBStreamsClient;
  streamArn: string;
  handler: StreamHandler;
  /** Delivers the description of a batch given up on (the on-failure queue); retried until it succeeds. */
  onFailure?: (failure: StreamBatchFailure) => Promise<void>;
  checkpoints: StreamCheckpoints;
  /** The stream's reads, shared with its other mappings (./stream-shard-feed.ts); absent: a feed of this poller's own. */
  feed?: StreamShardFeed;
  /**
   * Wait between reads of a shard that returned nothing, while records came in the last `busyForMs`, and
   * once it has been quiet longer (`idlePollIntervalMs`): both 250 ms by default, Lambda's base rate of 4
   * reads a second (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html, "Polling and batching
   * streams"). Each adds up to that much to a record's latency; each empty read costs DynamoDB Local
   * ~2-5 ms of CPU and this thread ~1 ms (shared by the stream's mappings: ./stream-shard-feed.ts).
   */
  pollIntervalMs?: number;
  idlePollIntervalMs?: number;
  /** How long a shard counts as busy after its last record (default 1 s). */
  busyForMs?: number;
  /** Shard listing interval (default 5 s); a closing shard triggers one at once. */
  discoveryIntervalMs?: number;
  /**
   * The shards the stream is read as (default 1): DynamoDB Local's one shard split into this many lanes by
   * partition key, each lane's records handed over as batches of their own (the header, ./stream-lanes.ts).
   */
  streamShards?: number;
  /** Retry backoff: base * 2^(n-1), capped (defaults 100 ms and 1 s). */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  log: (message: string) => void;
}

// ---------------------------------------------------------------------------------------------------
// Checkpoints

interface ShardCheckpoint {
  /** Last sequence number processed (handled, filtered out or given up on). */
  sequenceNumber?: string;
  /** The shard is closed and was read to its end. */
  done?: boolean;
}

interface CheckpointFile {
  version: 1;
  pollers: Record<string, { streamArn: string; shards: Record<string, ShardCheckpoint> }>;
}

/**
 * Per poller and shard, where processing got to. With a file, every change is written (temporary
 * file + rename: a crash leaves the old or the new file, never half of one) before the shard goes on.
 */
export class StreamCheckpoints {
  private state: CheckpointFile = { version: 1, pollers: {} };
  private writing: Promise<void> | null = null;
  private dirty = false;

  constructor(
    private readonly file?: string,
    log: (message: string) => void = () => undefined,
  ) {
    if (!file || !existsSync(file)) return;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as CheckpointFile;
      if (parsed.version === 1 && parsed.pollers) this.state = parsed;
    } catch (error) {
      // Unreadable: keep it aside for inspection and start over (the stream is read again from its start).
      const aside = `${file}.corrupt-${Date.now()}`;
      renameSync(file, aside);
      log(`stream checkpoints: ${file} is unreadable (${(error as Error).message}); moved to ${aside}`);
    }
  }

  /** True when this poller has state for this stream (a restart, not a new mapping). */
  has(poller: string, streamArn: string): boolean {
    return this.state.pollers[poller]?.streamArn === streamArn;
  }

  shards(poller: string, streamArn: string): Record<string, ShardCheckpoint> {
    const entry = this.state.pollers[poller];
    // Another stream (the table's stream was re-created): its positions mean nothing here.
    if (!entry || entry.streamArn !== streamArn) this.state.pollers[poller] = { streamArn, shards: {} };
    return this.state.pollers[poller]!.shards;
  }

  async save(poller: string, streamArn: string, shardId: string, checkpoint: ShardCheckpoint): Promise<void> {
    this.shards(poller, streamArn)[shardId] = checkpoint;
    await this.persist();
  }

  /** Forgets shards the stream no longer lists (trimmed after 24 h). */
  async retain(poller: string, streamArn: string, shardIds: Set<string>): Promise<void> {
    const shards = this.shards(poller, streamArn);
    const gone = Object.keys(shards).filter((id) => !shardIds.has(id));
    if (gone.length === 0) return;
    for (const id of gone) delete shards[id];
    await this.persist();
  }

  /** Resolves once the current state is on disk. Concurrent callers share writes; one write at a time. */
  async persist(): Promise<void> {
    if (!this.file) return;
    this.dirty = true;
    while (this.dirty) {
      if (this.writing) {
        await this.writing.catch(() => undefined);
        continue;
      }
      this.dirty = false;
      const file = this.file;
      const data = JSON.stringify(this.state, null, 1);
      this.writing = (async () => {
        await writeFile(`${file}.tmp`, data);
        await rename(`${file}.tmp`, file);
      })().finally(() => {
        this.writing = null;
      });
      await this.writing;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Records and filters

function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  // Lambda events carry binary as base64 text.
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M)! };
  // The SDK's union deserializer turns an empty map ({"M": {}} on the wire) into {}.
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`unknown attribute value type: ${Object.keys(value).join(',')}`);
}

function toLambdaImage(image: Record<string, SdkAttributeValue> | undefined): Record<string, AttributeValue> | undefined {
  if (!image) return undefined;
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));
}

/** A GetRecords record as Lambda hands it to the function (epoch seconds, base64 binary, the stream ARN). */
export function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const d = record.dynamodb ?? {};
  const dynamodb: NonNullable<DynamoDBRecord['dynamodb']> = {
    ApproximateCreationDateTime: d.ApproximateCreationDateTime
      ? Math.floor(new Date(d.ApproximateCreationDateTime).getTime() / 1000)
      : undefined,
    Keys: toLambdaImage(d.Keys),
    NewImage: toLambdaImage(d.NewImage),
    OldImage: toLambdaImage(d.OldImage),
    SequenceNumber: d.SequenceNumber,
    SizeBytes: d.SizeBytes,
    StreamViewType: d.StreamViewType,
  };
  for (const key of Object.keys(dynamodb) as (keyof typeof dynamodb)[]) if (dynamodb[key] === undefined) delete dynamodb[key];
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: record.eventSource ?? 'aws:dynamodb',
    awsRegion: record.awsRegion ?? LOCAL_REGION,
    dynamodb,
    eventSourceARN: streamArn,
    // TTL deletions are made by the service principal.
    ...(record.userIdentity ? { userIdentity: { type: record.userIdentity.Type, principalId: record.userIdentity.PrincipalId } } : {}),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function numericMatch(conditions: (string | number)[], value: number): boolean {
  for (let i = 0; i + 1 < conditions.length; i += 2) {
    const operator = conditions[i];
    const operand = Number(conditions[i + 1]);
    const ok =
      operator === '='
        ? value === operand
        : operator === '>'
          ? value > operand
          : operator === '>='
            ? value >= operand
            : operator === '<'
              ? value < operand
              : operator === '<='
                ? value <= operand
                : false;
    if (!ok) return false;
  }
  return true;
}

function matchesOne(rule: FilterValue, value: unknown): boolean {
  if (rule === null || typeof rule !== 'object') return value === rule;
  if ('prefix' in rule) return typeof value === 'string' && value.startsWith(rule.prefix);
  if ('suffix' in rule) return typeof value === 'string' && value.endsWith(rule.suffix);
  if ('equals-ignore-case' in rule) return typeof value === 'string' && value.toLowerCase() === rule['equals-ignore-case'].toLowerCase();
  if ('anything-but' in rule) {
    const excluded = ([] as (string | number)[]).concat(rule['anything-but']);
    return value !== undefined && !excluded.includes(value as string | number);
  }
  if ('numeric' in rule) return typeof value === 'number' && numericMatch(rule.numeric, value);
  return false;
}

function matchesLeaf(rules: FilterValue[], field: unknown): boolean {
  const values = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return rules.some((rule) => {
    if (isObject(rule) && 'exists' in rule) return rule.exists === (field !== undefined);
    return values.some((value) => matchesOne(rule, value));
  });
}

function matchesPattern(pattern: FilterPattern, value: unknown): boolean {
  return Object.entries(pattern).every(([key, rule]) => {
    const field = isObject(value) ? value[key] : undefined;
    return Array.isArray(rule) ? matchesLeaf(rule, field) : matchesPattern(rule, isObject(field) ? field : undefined);
  });
}

/** Lambda event filtering: a record is kept when it matches one of the patterns (or there are none). */
export function matchesFilters(patterns: readonly FilterPattern[], record: DynamoDBRecord): boolean {
  return patterns.length === 0 || patterns.some((pattern) => matchesPattern(pattern, record));
}

// ---------------------------------------------------------------------------------------------------
// The poller

interface Pending {
  record: DynamoDBRecord;
  sequenceNumber: string;
  /** Where the checkpoint may go once this record is processed (past the filtered-out records after it). */
  checkpointTo: string;
}

type Outcome = { kind: 'ok' } | { kind: 'partial'; from: number } | { kind: 'error'; message: string };

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

  constructor(private readonly options: StreamPollerOptions) {
    this.feed =
      options.feed ??
      new StreamShardFeed({
        streams: options.streams,
        streamArn: options.streamArn,
        minIntervalMs: options.pollIntervalMs,
        log: options.log,
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
    const { batchSize, maxBatchingWindowMs, filters, name } = this.options;
    const lanes = this.options.streamShards ?? 1;
    // With lanes, the buffer holds up to a batch for each (the batches the shards would each make).
    const bufferCap = batchSize * lanes;
    const busyInterval = this.options.pollIntervalMs ?? STREAM_BASE_POLL_MS;
    const idleInterval = this.options.idlePollIntervalMs ?? STREAM_BASE_POLL_MS;
    const busyFor = this.options.busyForMs ?? 1000;
    let lastRecordAt = 0;
    let exhausted = false;
    let waitMs: number | undefined;
    let lastRead = start.type === 'AFTER_SEQUENCE_NUMBER' ? start.sequenceNumber : undefined;
    const buffer: Pending[] = [];
    let firstBufferedAt = 0;
    /** Filtered-out records read while nothing was buffered, not yet checkpointed. */
    let skippedThrough: string | undefined;

    while (this.running) {
      let read = 0;
      if (!exhausted && buffer.length < bufferCap) {
        try {
          const position: Position = lastRead ? { type: 'AFTER_SEQUENCE_NUMBER', sequenceNumber: lastRead } : start;
          const result = await this.feed.read(name, shardId, position, this.abort.signal);
          // Converted before anything moves: a record that cannot be converted stops the shard here
          // (reported in /health, read again) rather than being skipped.
          const records = result.records.map((raw) => ({
            sequenceNumber: raw.dynamodb?.SequenceNumber ?? '',
            record: toLambdaRecord(raw, this.options.streamArn),
          }));
          exhausted = result.exhausted;
          waitMs = result.waitMs;
          this.error = null;
          if (records.length > 0) lastRecordAt = Date.now();
          for (const { sequenceNumber, record } of records) {
            read++;
            lastRead = sequenceNumber;
            if (matchesFilters(filters, record)) {
              buffer.push({ record, sequenceNumber, checkpointTo: sequenceNumber });
              if (!firstBufferedAt) firstBufferedAt = Date.now();
            } else {
              this.stats.filteredOut++;
              if (buffer.length) buffer[buffer.length - 1]!.checkpointTo = sequenceNumber;
              else skippedThrough = sequenceNumber;
            }
          }
        } catch (error) {
          if (!this.running) return;
          this.setError(`GetRecords on ${shardId} failed: ${(error as Error).message}`);
          await this.sleep(500);
          continue;
        }
      }

      const windowOver = firstBufferedAt > 0 && Date.now() - firstBufferedAt >= maxBatchingWindowMs;
      if (buffer.length >= bufferCap || (buffer.length > 0 && (windowOver || exhausted))) {
        const batch = buffer.splice(0, bufferCap);
        firstBufferedAt = buffer.length ? Date.now() : 0;
        skippedThrough = undefined;
        if (!(await (lanes > 1 ? this.deliverLanes(shardId, batch, lanes) : this.deliver(shardId, batch)))) return;
        continue;
      }
      if (skippedThrough) {
        await this.saveCheckpoint(shardId, { sequenceNumber: skippedThrough });
        skippedThrough = undefined;
      }
      if (exhausted && buffer.length === 0) {
        // Closed and read to its end: its children may start.
        await this.saveCheckpoint(shardId, { ...(lastRead ? { sequenceNumber: lastRead } : {}), done: true });
        return;
      }
      if (read === 0 || buffer.length > 0) {
        // An empty shard the other mappings read a moment ago is read again when the feed allows it.
        const pollInterval = Math.min(Date.now() - lastRecordAt < busyFor ? busyInterval : idleInterval, waitMs ?? Infinity);
        const windowLeft = buffer.length ? Math.max(1, maxBatchingWindowMs - (Date.now() - firstBufferedAt)) : pollInterval;
        await this.sleep(Math.min(pollInterval, windowLeft));
      }
    }
  }

  // -- invoking ----------------------------------------------------------------------------------

  private async invoke(batch: Pending[]): Promise<Outcome> {
    const { handler, name, timeoutSeconds, reportBatchItemFailures } = this.options;
    this.stats.invocations++;
    try {
      // Past the function's Timeout the invocation fails (../lambda/lambda-timeout.ts) and the batch is retried per the mapping.
      const response = await invokeWithinTimeout(
        { name, timeoutSeconds },
        (context) => handler({ Records: batch.map((p) => p.record) }, context),
        this.options.log,
      );
      if (!reportBatchItemFailures) return { kind: 'ok' };
      const failures = response?.batchItemFailures ?? [];
      if (failures.length === 0) return { kind: 'ok' };
      const positions = new Map(batch.map((p, index) => [p.sequenceNumber, index]));
      // As Lambda: the lowest failed sequence number is where processing resumes; an empty or unknown
      // identifier fails the whole batch.
      let from = batch.length;
      for (const failure of failures) from = Math.min(from, positions.get(failure?.itemIdentifier) ?? 0);
      return { kind: 'partial', from };
    } catch (error) {
      this.options.log(`${name}: handler failed: ${(error as Error).message}`);
      return { kind: 'error', message: (error as Error).message };
    }
  }

  private retryDelay(attempt: number): number {
    const base = this.options.retryBaseDelayMs ?? 100;
    const max = this.options.retryMaxDelayMs ?? 1000;
    return Math.min(max, base * 2 ** (attempt - 1));
  }

  /**
   * Hands the records to the function as the lanes' batches (./stream-lanes.ts): each lane's batches in
   * order, up to MAX_LANES_AT_ONCE lanes at once; the shard's checkpoint moves once every lane is done.
   */
  private async deliverLanes(shardId: string, records: Pending[], lanes: number): Promise<boolean> {
    const queue = laneBatches(records, lanes, this.options.batchSize, (pending) => pending.record.dynamodb?.Keys);
    let stopped = false;
    const worker = async () => {
      for (let lane = queue.shift(); lane && !stopped; lane = queue.shift()) {
        for (const batch of lane) {
          if (!(await this.deliver(shardId, batch, false))) {
            stopped = true;
            return;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_LANES_AT_ONCE, queue.length) }, worker));
    if (stopped) return false;
    await this.saveCheckpoint(shardId, { sequenceNumber: records[records.length - 1]!.checkpointTo });
    return true;
  }

  /**
   * Handles one batch to the end: every record is processed, or given up on after the retries, and
   * checkpointed (unless `checkpoint` is false: a lane's batch, checkpointed with its lanes). False when the
   * poller stopped first (the rest is read again after a restart).
   */
  private async deliver(shardId: string, records: Pending[], checkpoint = true): Promise<boolean> {
    const { retryAttempts, bisectBatchOnFunctionError } = this.options;
    const pending: Pending[][] = [records];
    let attempts = 0;
    let invokes = 0;
    while (pending.length > 0) {
      if (!this.running) return false;
      const batch = pending[0]!;
      const outcome = await this.invoke(batch);
      invokes++;
      if (outcome.kind === 'ok') {
        this.stats.records += batch.length;
        if (checkpoint) await this.saveCheckpoint(shardId, { sequenceNumber: batch[batch.length - 1]!.checkpointTo });
        pending.shift();
        attempts = 0;
        continue;
      }
      let failing = batch;
      if (outcome.kind === 'partial') {
        if (outcome.from > 0) {
          this.stats.records += outcome.from;
          if (checkpoint) await this.saveCheckpoint(shardId, { sequenceNumber: batch[outcome.from - 1]!.checkpointTo });
        }
        failing = batch.slice(outcome.from);
        pending[0] = failing;
      } else if (bisectBatchOnFunctionError && batch.length > 1) {
        // Splitting is not a retry (Lambda's bisection): each half gets its own attempts.
        const half = Math.ceil(batch.length / 2);
        pending.splice(0, 1, batch.slice(0, half), batch.slice(half));
        attempts = 0;
        continue;
      }
      attempts++;
      if (retryAttempts >= 0 && attempts > retryAttempts) {
        if (!(await this.giveUp(shardId, failing, invokes, outcome))) return false;
        if (checkpoint) await this.saveCheckpoint(shardId, { sequenceNumber: failing[failing.length - 1]!.checkpointTo });
        pending.shift();
        attempts = 0;
        continue;
      }
      await this.sleep(this.retryDelay(attempts));
    }
    return true;
  }

  /** Describes the batch on the on-failure queue, retrying until that works (never drops it silently). */
  private async giveUp(shardId: string, batch: Pending[], invokes: number, outcome: Outcome): Promise<boolean> {
    this.stats.failedBatches++;
    const first = batch[0]!;
    const last = batch[batch.length - 1]!;
    const arrival = (p: Pending) =>
      p.record.dynamodb?.ApproximateCreationDateTime
        ? new Date(p.record.dynamodb.ApproximateCreationDateTime * 1000).toISOString()
        : undefined;
    const failure: StreamBatchFailure = {
      requestContext: {
        requestId: randomUUID(),
        functionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${this.options.name}`,
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: invokes,
      },
      responseContext: {
        statusCode: 200,
        executedVersion: '$LATEST',
        ...(outcome.kind === 'error' ? { functionError: 'Unhandled' as const } : {}),
      },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: first.sequenceNumber,
        endSequenceNumber: last.sequenceNumber,
        approximateArrivalOfFirstRecord: arrival(first),
        approximateArrivalOfLastRecord: arrival(last),
        batchSize: batch.length,
        streamArn: this.options.streamArn,
      },
    };
    this.options.log(
      `${this.options.name}: giving up on ${batch.length} record(s) ${first.sequenceNumber}..${last.sequenceNumber} of ${shardId} after ${invokes} invocation(s)`,
    );
    if (!this.options.onFailure) return true;
    for (let attempt = 1; ; attempt++) {
      if (!this.running) return false;
      try {
        await this.options.onFailure(failure);
        return true;
      } catch (error) {
        this.setError(`on-failure destination failed: ${(error as Error).message}`);
        await this.sleep(Math.min(5000, 200 * attempt));
      }
    }
  }
}
