/**
 * Hands a shard's batches to a stream mapping's function as Lambda does (./stream-poller.ts reads them):
 * the function gets a real DynamoDBStreamEvent; `batchItemFailures` checkpoints before the first failed
 * record and retries from it; a throw (or a timeout) retries the batch, bisected if asked; after
 * retryAttempts retries the batch is described on the on-failure queue (Lambda's record shape) and the
 * shard moves on. With lanes (./stream-lanes.ts), each lane's batches in order, the lanes at once.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from '../constants';
import { invokeWithinTimeout } from '../lambda/lambda-timeout';
import type { ShardCheckpoint } from './stream-checkpoints';
import { laneBatches, MAX_LANES_AT_ONCE } from './stream-lanes';
import type { StreamBatchFailure, StreamPollerOptions } from './stream-mapping';

/** A record read and kept (it passed the filters), waiting to be handed to the function. */
export interface Pending {
  record: DynamoDBRecord;
  sequenceNumber: string;
  /** Where the checkpoint may go once this record is processed (past the filtered-out records after it). */
  checkpointTo: string;
}

type Outcome = { kind: 'ok' } | { kind: 'partial'; from: number } | { kind: 'error'; message: string };

/** What a delivery shares with its poller: whether it runs, its sleep (cut short by a stop), its error, checkpoints and counters. */
export interface DeliveryHost {
  running(): boolean;
  sleep(ms: number): Promise<void>;
  setError(message: string): void;
  saveCheckpoint(shardId: string, checkpoint: ShardCheckpoint): Promise<void>;
  readonly stats: { invocations: number; records: number; failedBatches: number };
}

export class StreamDelivery {
  constructor(
    private readonly options: StreamPollerOptions,
    private readonly host: DeliveryHost,
  ) {}

  private async invoke(batch: Pending[]): Promise<Outcome> {
    const { handler, name, timeoutSeconds, reportBatchItemFailures } = this.options;
    this.host.stats.invocations++;
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
  async deliverLanes(shardId: string, records: Pending[], lanes: number): Promise<boolean> {
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
    await this.host.saveCheckpoint(shardId, { sequenceNumber: records[records.length - 1]!.checkpointTo });
    return true;
  }

  /**
   * Handles one batch to the end: every record is processed, or given up on after the retries, and
   * checkpointed (unless `checkpoint` is false: a lane's batch, checkpointed with its lanes). False when the
   * poller stopped first (the rest is read again after a restart).
   */
  async deliver(shardId: string, records: Pending[], checkpoint = true): Promise<boolean> {
    const { retryAttempts, bisectBatchOnFunctionError } = this.options;
    const pending: Pending[][] = [records];
    let attempts = 0;
    let invokes = 0;
    while (pending.length > 0) {
      if (!this.host.running()) return false;
      const batch = pending[0]!;
      const outcome = await this.invoke(batch);
      invokes++;
      if (outcome.kind === 'ok') {
        this.host.stats.records += batch.length;
        if (checkpoint) await this.host.saveCheckpoint(shardId, { sequenceNumber: batch[batch.length - 1]!.checkpointTo });
        pending.shift();
        attempts = 0;
        continue;
      }
      let failing = batch;
      if (outcome.kind === 'partial') {
        if (outcome.from > 0) {
          this.host.stats.records += outcome.from;
          if (checkpoint) await this.host.saveCheckpoint(shardId, { sequenceNumber: batch[outcome.from - 1]!.checkpointTo });
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
        if (checkpoint) await this.host.saveCheckpoint(shardId, { sequenceNumber: failing[failing.length - 1]!.checkpointTo });
        pending.shift();
        attempts = 0;
        continue;
      }
      await this.host.sleep(this.retryDelay(attempts));
    }
    return true;
  }

  /** Describes the batch on the on-failure queue, retrying until that works (never drops it silently). */
  private async giveUp(shardId: string, batch: Pending[], invokes: number, outcome: Outcome): Promise<boolean> {
    this.host.stats.failedBatches++;
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
      if (!this.host.running()) return false;
      try {
        await this.options.onFailure(failure);
        return true;
      } catch (error) {
        this.host.setError(`on-failure destination failed: ${(error as Error).message}`);
        await this.host.sleep(Math.min(5000, 200 * attempt));
      }
    }
  }
}
