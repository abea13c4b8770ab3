/**
 * A DynamoDB Streams event source mapping as the local cloud runs it (./stream-poller.ts): its settings,
 * from the stream worker's definition as in CDK (STREAM_WORKERS in infra/definitions/stream-workers.ts),
 * the function it invokes, and what Lambda sends to its on-failure destination for a batch it gave up on
 * (docs/local-cloud/streams.md).
 */
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { StreamWorkerDefinition } from '#infra/definitions';
import type { StreamCheckpoints } from './stream-checkpoints';
import type { StreamShardFeed } from './stream-shard-feed';

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
export type MappingSettings = Pick<
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
