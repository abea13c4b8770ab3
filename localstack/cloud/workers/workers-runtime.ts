/**
 * The Lambda event sources of the local cloud: one SqsPoller per worker definition and one
 * StreamPoller per stream worker definition (the table's DynamoDB stream), each invoking the worker's
 * real handler. Runs in a worker thread of its own (see workers-thread.ts) so delivering mail never
 * competes with the API for the main thread's event loop, as separate Lambdas would not.
 */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { loadOnFirstInvoke, type LocalFunction } from '../lambda/function-context';
import { enforceIam, type IamSettings } from '../iam/iam-setup';
import { localTaskPeriod, ScheduledTaskRunner, type TaskHandler, type TaskStatus } from './scheduled-tasks';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import { SqsPoller, type WorkerHandler } from '../messaging/sqs-poller';
import { StreamCheckpoints } from '../streams/stream-checkpoints';
import type { MappingSettings, StreamHandler } from '../streams/stream-mapping';
import { StreamPoller } from '../streams/stream-poller';
import { streamShardsFromEnv } from '../streams/stream-lanes';
import { StreamShardFeed } from '../streams/stream-shard-feed';
import { withoutSdkLogging } from '#shared/adapters/aws/client-hooks';

/** A queue's event source mapping (AWS::Lambda::EventSourceMapping on an SQS queue) and its function. */
export interface QueueWorkerConfig {
  fn: LocalFunction;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  /** ScalingConfig.MaximumConcurrency: the pollers run (default 2). */
  maxConcurrency?: number;
}

/** A stream event source mapping (its settings as the template gives them) and its function, with its on-failure destination queue. */
export type StreamWorkerConfig = Omit<MappingSettings, 'timeoutSeconds'> & { fn: LocalFunction; onFailure?: { url: string; arn: string } };

/** A function an EventBridge rate rule runs, and the local period (LOCAL_TASK_PERIOD_MS overrides it). */
export interface TaskConfig {
  fn: LocalFunction;
  localEveryMs: number;
}

export interface StreamsConfig {
  dynamodbEndpoint: string;
  /** The table's stream. */
  streamArn: string;
  workers: StreamWorkerConfig[];
  /** DATA_DIR/stream-checkpoints.json; absent: checkpoints in memory (in-memory cloud). */
  checkpointFile?: string;
  /** Read interval of a shard with nothing new: busy (records in the last second) and idle (defaults 250 and 250 ms). */
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
  /** IAM on the functions' SDK calls in this thread (../iam/iam-setup.ts). */
  iam?: IamSettings;
  workers: QueueWorkerConfig[];
  streams?: StreamsConfig;
  /** Functions run on a timer (the reconciler). */
  tasks?: TaskConfig[];
}

export interface RunningWorkers {
  isRunning(name: string): boolean;
  /** State of each stream poller by worker name: 'up' or 'down: <why>'. */
  streamStatus(): Record<string, string>;
  /** GetRecords calls made on the table's stream since start, by all its mappings together. */
  streamReads(): number;
  /** Each scheduled task's passes and last report, by name. */
  taskStatus(): Record<string, TaskStatus>;
  /** A pass of the scheduled task `name` now (./scheduled-tasks.ts, runNow); null when there is no such task. */
  runTask(name: string): Promise<TaskStatus | null>;
  stop(): Promise<void>;
}

function startStreamPollers(config: StreamsConfig, sqs: SQSClient, log: (message: string) => void) {
  const streams = withoutSdkLogging(
    new DynamoDBStreamsClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: config.dynamodbEndpoint, maxAttempts: 2 }),
  );
  // Every GetRecords of the stream's mappings, counted for /health (`stream_reads`).
  let reads = 0;
  streams.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'GetRecordsCommand') reads++;
      return next(args);
    },
    { step: 'initialize', name: 'countStreamReads' },
  );
  const checkpoints = new StreamCheckpoints(config.checkpointFile, log);
  const fromEnv = pollIntervalsFromEnv(process.env);
  const pollIntervalMs = config.pollIntervalMs ?? fromEnv.pollIntervalMs;
  const streamShards = streamShardsFromEnv(process.env);
  // The mappings share one read of each shard (../streams/stream-shard-feed.ts).
  const feed = new StreamShardFeed({ streams, streamArn: config.streamArn, minIntervalMs: pollIntervalMs, log });
  const pollers = new Map<string, StreamPoller>();
  for (const worker of config.workers) {
    const onFailure = worker.onFailure;
    pollers.set(
      worker.fn.name,
      new StreamPoller({
        name: worker.fn.name,
        streams,
        streamArn: config.streamArn,
        handler: loadOnFirstInvoke<StreamHandler>(worker.fn),
        startingPosition: worker.startingPosition,
        batchSize: worker.batchSize,
        maxBatchingWindowMs: worker.maxBatchingWindowMs,
        filters: worker.filters,
        retryAttempts: worker.retryAttempts,
        bisectBatchOnFunctionError: worker.bisectBatchOnFunctionError,
        reportBatchItemFailures: worker.reportBatchItemFailures,
        timeoutSeconds: worker.fn.timeoutSeconds,
        onFailure: onFailure
          ? async (failure) => {
              await sqs.send(new SendMessageCommand({ QueueUrl: onFailure.url, MessageBody: JSON.stringify(failure) }));
            }
          : undefined,
        checkpoints,
        feed,
        pollIntervalMs,
        idlePollIntervalMs: config.idlePollIntervalMs ?? fromEnv.idlePollIntervalMs,
        streamShards,
        log,
      }),
    );
  }
  return {
    pollers,
    reads: () => reads,
    stop: async () => {
      await Promise.all([...pollers.values()].map((poller) => poller.stop()));
      streams.destroy();
    },
  };
}

type StreamPollers = ReturnType<typeof startStreamPollers>;

export async function startWorkers(config: WorkersConfig, log: (message: string) => void): Promise<RunningWorkers> {
  // Before the handlers load: their clients get the IAM checks when built.
  if (config.iam) enforceIam(config.iam, log);
  const sqs = withoutSdkLogging(
    new SQSClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: config.sqsEndpoint, maxAttempts: 2 }),
  );
  const pollers = queuePollers(config.workers, sqs, log);
  const streams = config.streams ? startStreamPollers(config.streams, sqs, log) : undefined;
  const tasks = taskRunners(config.tasks ?? [], log);
  startPollersAndTasks(pollers, streams, tasks, log);
  return runningWorkers(sqs, pollers, streams, tasks);
}

/** One SqsPoller per queue mapping, by its function's name (not started yet). */
function queuePollers(workers: QueueWorkerConfig[], sqs: SQSClient, log: (message: string) => void): Map<string, SqsPoller> {
  const pollers = new Map<string, SqsPoller>();
  for (const worker of workers) {
    pollers.set(
      worker.fn.name,
      new SqsPoller({
        name: worker.fn.name,
        sqs,
        queueUrl: worker.queueUrl,
        queueArn: worker.queueArn,
        handler: loadOnFirstInvoke<WorkerHandler>(worker.fn),
        batchSize: worker.batchSize,
        timeoutSeconds: worker.fn.timeoutSeconds,
        concurrency: worker.maxConcurrency,
        log,
      }),
    );
  }
  return pollers;
}

/** One ScheduledTaskRunner per scheduled function, by its name (not started yet). */
function taskRunners(configs: TaskConfig[], log: (message: string) => void): Map<string, ScheduledTaskRunner> {
  const tasks = new Map<string, ScheduledTaskRunner>();
  for (const task of configs) {
    tasks.set(
      task.fn.name,
      new ScheduledTaskRunner({
        name: task.fn.name,
        handler: loadOnFirstInvoke<TaskHandler>(task.fn),
        everyMs: localTaskPeriod(task.localEveryMs, process.env, task.fn.name),
        timeoutSeconds: task.fn.timeoutSeconds,
        log,
      }),
    );
  }
  return tasks;
}

/** Starts the queue pollers (but the held ones), then the stream pollers, then the scheduled tasks. */
function startPollersAndTasks(
  pollers: Map<string, SqsPoller>,
  streams: StreamPollers | undefined,
  tasks: Map<string, ScheduledTaskRunner>,
  log: (message: string) => void,
): void {
  // LOCAL_HOLD_WORKERS=<name>[,<name>]: those queue workers are not started, so their messages wait in
  // the queue (a test of what a crash between hand-over and processing leaves behind; test/integration/inbound-restart.test.ts).
  const held = new Set(
    (process.env.LOCAL_HOLD_WORKERS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  for (const [name, poller] of pollers) {
    if (held.has(name)) log(`worker ${name} held (LOCAL_HOLD_WORKERS): its queue is not read`);
    else poller.start();
  }
  for (const poller of streams?.pollers.values() ?? []) poller.start();
  for (const task of tasks.values()) task.start();
}

/** The running workers, as the thread reports and stops them. */
function runningWorkers(
  sqs: SQSClient,
  pollers: Map<string, SqsPoller>,
  streams: StreamPollers | undefined,
  tasks: Map<string, ScheduledTaskRunner>,
): RunningWorkers {
  return {
    isRunning: (name) => pollers.get(name)?.isRunning() ?? streams?.pollers.get(name)?.isRunning() ?? false,
    streamStatus: () =>
      Object.fromEntries([...(streams?.pollers ?? new Map<string, StreamPoller>())].map(([name, poller]) => [name, poller.status()])),
    streamReads: () => streams?.reads() ?? 0,
    taskStatus: () => Object.fromEntries([...tasks].map(([name, task]) => [name, task.status()])),
    runTask: async (name) => (await tasks.get(name)?.runNow()) ?? null,
    stop: async () => {
      await Promise.all([...tasks.values()].map((task) => task.stop()));
      // Stream pollers first: a batch in flight may still send to the queues.
      await streams?.stop();
      await Promise.all([...pollers.values()].map((poller) => poller.stop()));
      sqs.destroy();
    },
  };
}
