/**
 * What the workers thread runs (./workers-host.ts, ./workers-runtime.ts), from the deployed template: a
 * poller per SQS event source mapping, the table stream's mappings (docs/local-cloud/streams.md) with
 * their on-failure queues, and the scheduled tasks at their local periods.
 */
import { SCHEDULED_TASKS } from '#infra/definitions';
import type { IamSettings } from '../iam/iam-setup';
import type { LocalEndpoints } from '../services/local-endpoints';
import type { LocalFunctionOf } from '../lambda/local-functions';
import type { StartContext } from '../stack/start-context';
import type { LocalDeployment } from '../template/deploy';
import type { StreamsConfig, WorkersConfig } from './workers-runtime';

export function workersConfig(
  ctx: StartContext,
  deployment: LocalDeployment,
  functionOf: LocalFunctionOf,
  iam: IamSettings,
  endpoints: LocalEndpoints,
): WorkersConfig {
  return {
    sqsEndpoint: endpoints.sqs,
    iam,
    workers: deployment.queueSources.map((source) => ({
      fn: functionOf(source.function),
      queueUrl: deployment.queueUrls[source.queueArn]!,
      queueArn: source.queueArn,
      batchSize: source.batchSize,
      maxConcurrency: source.maxConcurrency,
    })),
    streams: streamsConfig(ctx, deployment, functionOf, endpoints),
    tasks: deployment.schedules.map((schedule) => ({
      fn: functionOf(schedule.function),
      // The local period of the task (infra/definitions/scheduled-tasks.ts), LOCAL_TASK_PERIOD_MS overriding it.
      localEveryMs: SCHEDULED_TASKS.find((task) => task.name === schedule.function.name)?.localEveryMs ?? schedule.everyMs,
    })),
  };
}

/** The table's stream feeding the stream workers (the outbox relay); undefined when the table has none. */
function streamsConfig(
  ctx: StartContext,
  deployment: LocalDeployment,
  functionOf: LocalFunctionOf,
  endpoints: LocalEndpoints,
): StreamsConfig | undefined {
  if (!deployment.streamArn) return undefined;
  const onFailureOf = (arn: string | undefined) => (arn ? { url: deployment.queueUrls[arn]!, arn } : undefined);
  return {
    dynamodbEndpoint: endpoints.dynamodb,
    streamArn: deployment.streamArn,
    workers: deployment.streamSources.map((source) => ({
      fn: functionOf(source.function),
      startingPosition: source.startingPosition,
      batchSize: source.batchSize,
      maxBatchingWindowMs: source.maxBatchingWindowMs,
      filters: source.filters,
      retryAttempts: source.retryAttempts,
      bisectBatchOnFunctionError: source.bisectBatchOnFunctionError,
      reportBatchItemFailures: source.reportBatchItemFailures,
      onFailure: onFailureOf(source.onFailureArn),
    })),
    checkpointFile: ctx.persistDir('stream-checkpoints.json'),
  };
}
