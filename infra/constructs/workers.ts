import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, STREAM_WORKERS, TABLE, WORKERS, type StreamWorkerDefinition } from '../definitions';
import { MAX_MEMORY_MB, MIN_MEMORY_MB, ServiceFunction, type FunctionDefaults } from './service-function';
import { acknowledgeRule, acknowledgeWildcardResources } from './nag';
import { pascalCase } from './util';
import { SES_RATE_CONTEXT, WORKER_CONCURRENCY_CONTEXT, workerConcurrencies } from '../worker-concurrency';

/** Lambda's limits on a stream event source mapping's batching window. */
const MAX_BATCHING_WINDOW_MS = 300_000;
/** Lambda's memory range (MB, 1 MB steps). */

/** Fails the synthesis on settings Lambda would refuse, naming the worker. */
function checkStreamWorker(worker: StreamWorkerDefinition): void {
  const fail = (message: string): never => {
    throw new Error(`Stream worker "${worker.name}": ${message}`);
  };
  if (!TABLE.stream) fail('the table has no stream (set TABLE.stream in infra/definitions/table.ts)');
  if (TABLE.stream === 'KEYS_ONLY' || TABLE.stream === 'OLD_IMAGE') fail(`the table's stream (${TABLE.stream}) carries no new image`);
  if (!Number.isInteger(worker.batchSize) || worker.batchSize < 1 || worker.batchSize > 10_000)
    fail(`batchSize ${worker.batchSize} must be 1-10000`);
  if (worker.maxBatchingWindowMs % 1000 !== 0 || worker.maxBatchingWindowMs < 0 || worker.maxBatchingWindowMs > MAX_BATCHING_WINDOW_MS) {
    fail(
      `maxBatchingWindowMs ${worker.maxBatchingWindowMs} must be whole seconds between 0 and 300000 (Lambda's MaximumBatchingWindowInSeconds)`,
    );
  }
  if (!Number.isInteger(worker.retryAttempts) || worker.retryAttempts < -1 || worker.retryAttempts > 10_000)
    fail(`retryAttempts ${worker.retryAttempts} must be -1 or 0-10000`);
}

/**
 * One Lambda per WORKERS entry, fed by its queue with partial batch failures; and one Lambda per
 * STREAM_WORKERS entry, fed by the table's stream (filters, partial batch failures, bisection, bounded
 * retries) with an SQS on-failure destination of its own.
 */
export class Workers extends Construct {
  /** Lambda of each worker and stream worker, by name. */
  readonly functions: Record<string, lambda.Function> = {};
  /** On-failure queue of each stream worker, by worker name. */
  readonly onFailureQueues: Record<string, sqs.Queue> = {};

  constructor(scope: Construct, id: string, props: FunctionDefaults) {
    super(scope, id);

    const concurrency = workerConcurrencies(this.node.tryGetContext(WORKER_CONCURRENCY_CONTEXT), this.node.tryGetContext(SES_RATE_CONTEXT));
    for (const worker of WORKERS) {
      const queueDef = QUEUES[worker.queue];
      const maxConcurrency = concurrency[worker.name] ?? worker.maxConcurrency;
      if (worker.timeoutSeconds >= queueDef.visibilityTimeoutSeconds) {
        throw new Error(
          `Worker "${worker.name}": timeout ${worker.timeoutSeconds}s must stay below the visibility timeout of queue "${worker.queue}" (${queueDef.visibilityTimeoutSeconds}s)`,
        );
      }
      if (
        worker.memoryMb !== undefined &&
        (!Number.isInteger(worker.memoryMb) || worker.memoryMb < MIN_MEMORY_MB || worker.memoryMb > MAX_MEMORY_MB)
      ) {
        throw new Error(
          `Worker "${worker.name}": memoryMb ${worker.memoryMb} must be a whole number of MB from ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB}`,
        );
      }
      const fn = new ServiceFunction(this, pascalCase(worker.name), {
        ...props,
        name: worker.name,
        grants: worker.grants,
        timeout: Duration.seconds(worker.timeoutSeconds),
        memoryMb: worker.memoryMb,
      }).function;
      // The event source adds the consume permissions it needs on its queue.
      fn.addEventSource(
        new SqsEventSource(props.resources.queues[worker.queue], {
          batchSize: worker.batchSize,
          reportBatchItemFailures: true,
          ...(maxConcurrency ? { maxConcurrency } : {}),
        }),
      );
      this.functions[worker.name] = fn;
    }

    for (const worker of STREAM_WORKERS) {
      checkStreamWorker(worker);
      const fn = new ServiceFunction(this, pascalCase(worker.name), {
        ...props,
        name: worker.name,
        grants: worker.grants,
        timeout: Duration.seconds(worker.timeoutSeconds),
        memoryMb: worker.memoryMb,
      }).function;
      // Lambda sends a description of each batch it gives up on (shard, sequence numbers, stream ARN):
      // the records stay readable in the stream for 24 h and the emails stay `queued` in the table.
      const onFailure = new sqs.Queue(this, `${pascalCase(worker.name)}OnFailure`, {
        retentionPeriod: Duration.days(14),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      acknowledgeRule(
        onFailure,
        'SQS3',
        "This queue is the stream worker's on-failure destination, a dead-letter queue in all but name (Lambda sends it the batches it gave up on): nothing consumes it automatically, so a DLQ behind it would never receive anything.",
      );
      // The event source grants stream reads (DescribeStream, GetShardIterator, GetRecords on the
      // stream; ListStreams, which has no resource-level permission) and SendMessage on the on-failure queue.
      fn.addEventSource(
        new DynamoEventSource(props.resources.table, {
          startingPosition: lambda.StartingPosition[worker.startingPosition],
          batchSize: worker.batchSize,
          maxBatchingWindow: Duration.seconds(worker.maxBatchingWindowMs / 1000),
          retryAttempts: worker.retryAttempts,
          bisectBatchOnError: worker.bisectBatchOnFunctionError,
          reportBatchItemFailures: worker.reportBatchItemFailures,
          filters: worker.filters.map((pattern) => lambda.FilterCriteria.filter(pattern as Record<string, unknown>)),
          onFailure: new SqsDlq(onFailure),
        }),
      );
      acknowledgeWildcardResources(
        fn,
        ['*'],
        'dynamodb:ListStreams, which the DynamoDB event source mapping needs, has no resource-level permission: AWS requires Resource "*" (Service Authorization Reference, Amazon DynamoDB); the stream reads themselves are on the table\'s stream ARN.',
      );
      this.functions[worker.name] = fn;
      this.onFailureQueues[worker.name] = onFailure;
    }
  }
}
