/**
 * The Lambda event sources of the local cloud: one SqsPoller per worker definition and one
 * StreamPoller per stream worker definition (the table's DynamoDB stream), each invoking the worker's
 * real handler. Runs in a worker thread of its own (see workers-thread.ts) so delivering mail never
 * competes with the API for the main thread's event loop, as separate Lambdas would not.
 */
import { join, resolve } from 'node:path';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { ScheduledTaskDefinition, StreamWorkerDefinition, WorkerDefinition } from '../../infra/definitions';
import { localTaskPeriod, ScheduledTaskRunner, type TaskHandler, type TaskStatus } from './scheduled-tasks';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';
import { SqsPoller, type WorkerHandler } from './sqs-poller';
import { StreamCheckpoints, StreamPoller, type StreamHandler } from './stream-poller';

export interface StreamsConfig {
  dynamodbEndpoint: string;
  /** The table's stream. */
  streamArn: string;
  workers: StreamWorkerDefinition[];
  /** On-failure queue of each stream worker, by worker name. */
  onFailureQueues: Record<string, { url: string; arn: string }>;
  /** DATA_DIR/stream-checkpoints.json; absent: checkpoints in memory (in-memory cloud). */
  checkpointFile?: string;
  /** Read interval of a shard with nothing new: busy (records in the last second) and idle (defaults 25 and 50 ms). */
  pollIntervalMs?: number;
  idlePollIntervalMs?: number;
}

/** LOCAL_STREAM_POLL_MS=busy[,idle] overrides the stream pollers' read intervals (e.g. `100,500` on a slow machine). */
function pollIntervalsFromEnv(env: NodeJS.ProcessEnv): { pollIntervalMs?: number; idlePollIntervalMs?: number } {
  const [busy, idle] = (env.LOCAL_STREAM_POLL_MS ?? '').split(',').map((part) => Number(part.trim()));
  const valid = (value: number | undefined) => (value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined);
  return { pollIntervalMs: valid(busy), idlePollIntervalMs: valid(idle) ?? valid(busy) };
}

export interface WorkersConfig {
  sqsEndpoint: string;
  workers: WorkerDefinition[];
  queues: Record<string, { url: string; arn: string }>;
  streams?: StreamsConfig;
  /** Functions run on a timer (the reconciler). */
  tasks?: ScheduledTaskDefinition[];
}

export interface RunningWorkers {
  isRunning(name: string): boolean;
  /** State of each stream poller by worker name: 'up' or 'down: <why>'. */
  streamStatus(): Record<string, string>;
  /** Each scheduled task's passes and last report, by name. */
  taskStatus(): Record<string, TaskStatus>;
  stop(): Promise<void>;
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');

function loadHandler<T>(entry: string): T {
  // require, not import(): in a worker thread only tsx's CommonJS hook is registered.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const module = require(join(PROJECT_ROOT, entry)) as { handler?: T };
  if (!module.handler) throw new Error(`${entry} does not export a handler`);
  return module.handler;
}

function startStreamPollers(config: StreamsConfig, sqs: SQSClient, log: (message: string) => void) {
  const streams = new DynamoDBStreamsClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: config.dynamodbEndpoint, maxAttempts: 2 });
  const checkpoints = new StreamCheckpoints(config.checkpointFile, log);
  const fromEnv = pollIntervalsFromEnv(process.env);
  const pollers = new Map<string, StreamPoller>();
  for (const worker of config.workers) {
    const onFailure = config.onFailureQueues[worker.name];
    pollers.set(
      worker.name,
      new StreamPoller({
        name: worker.name,
        streams,
        streamArn: config.streamArn,
        handler: loadHandler<StreamHandler>(worker.entry),
        startingPosition: worker.startingPosition,
        batchSize: worker.batchSize,
        maxBatchingWindowMs: worker.maxBatchingWindowMs,
        filters: worker.filters,
        retryAttempts: worker.retryAttempts,
        bisectBatchOnFunctionError: worker.bisectBatchOnFunctionError,
        reportBatchItemFailures: worker.reportBatchItemFailures,
        timeoutSeconds: worker.timeoutSeconds,
        onFailure: onFailure
          ? async (failure) => {
              await sqs.send(new SendMessageCommand({ QueueUrl: onFailure.url, MessageBody: JSON.stringify(failure) }));
            }
          : undefined,
        checkpoints,
        pollIntervalMs: config.pollIntervalMs ?? fromEnv.pollIntervalMs,
        idlePollIntervalMs: config.idlePollIntervalMs ?? fromEnv.idlePollIntervalMs,
        log,
      }),
    );
  }
  return {
    pollers,
    stop: async () => {
      await Promise.all([...pollers.values()].map((poller) => poller.stop()));
      streams.destroy();
    },
  };
}

export async function startWorkers(config: WorkersConfig, log: (message: string) => void): Promise<RunningWorkers> {
  const sqs = new SQSClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: config.sqsEndpoint, maxAttempts: 2 });
  const pollers = new Map<string, SqsPoller>();
  for (const worker of config.workers) {
    const queue = config.queues[worker.queue]!;
    pollers.set(
      worker.name,
      new SqsPoller({
        name: worker.name,
        sqs,
        queueUrl: queue.url,
        queueArn: queue.arn,
        handler: loadHandler<WorkerHandler>(worker.entry),
        batchSize: worker.batchSize,
        timeoutSeconds: worker.timeoutSeconds,
        concurrency: worker.maxConcurrency,
        log,
      }),
    );
  }
  const streams = config.streams ? startStreamPollers(config.streams, sqs, log) : undefined;
  const tasks = new Map<string, ScheduledTaskRunner>();
  for (const task of config.tasks ?? []) {
    tasks.set(task.name, new ScheduledTaskRunner({ name: task.name, handler: loadHandler<TaskHandler>(task.entry), everyMs: localTaskPeriod(task.localEveryMs, process.env), log }));
  }
  // LOCAL_HOLD_WORKERS=<name>[,<name>]: those queue workers are not started, so their messages wait in
  // the queue (a test of what a crash between hand-over and processing leaves behind; docs/local-cloud.md).
  const held = new Set((process.env.LOCAL_HOLD_WORKERS ?? '').split(',').map((name) => name.trim()).filter(Boolean));
  for (const [name, poller] of pollers) {
    if (held.has(name)) log(`worker ${name} held (LOCAL_HOLD_WORKERS): its queue is not read`);
    else poller.start();
  }
  for (const poller of streams?.pollers.values() ?? []) poller.start();
  for (const task of tasks.values()) task.start();
  return {
    isRunning: (name) => pollers.get(name)?.isRunning() ?? streams?.pollers.get(name)?.isRunning() ?? false,
    streamStatus: () => Object.fromEntries([...(streams?.pollers ?? new Map<string, StreamPoller>())].map(([name, poller]) => [name, poller.status()])),
    taskStatus: () => Object.fromEntries([...tasks].map(([name, task]) => [name, task.status()])),
    stop: async () => {
      await Promise.all([...tasks.values()].map((task) => task.stop()));
      // Stream pollers first: a batch in flight may still send to the queues.
      await streams?.stop();
      await Promise.all([...pollers.values()].map((poller) => poller.stop()));
      sqs.destroy();
    },
  };
}
