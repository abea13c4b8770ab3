/**
 * The Lambda event sources of the local cloud: one SqsPoller per worker definition, invoking the
 * worker's real handler. Runs in a worker thread of its own (see workers-thread.ts) so delivering
 * mail never competes with the API for the main thread's event loop, as separate Lambdas would not.
 */
import { join, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { WorkerDefinition } from '../../infra/definitions';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './constants';
import { SqsPoller, type WorkerHandler } from './sqs-poller';

export interface WorkersConfig {
  sqsEndpoint: string;
  workers: WorkerDefinition[];
  queues: Record<string, { url: string; arn: string }>;
}

export interface RunningWorkers {
  isRunning(name: string): boolean;
  stop(): Promise<void>;
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');

export async function startWorkers(config: WorkersConfig, log: (message: string) => void): Promise<RunningWorkers> {
  const sqs = new SQSClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: config.sqsEndpoint, maxAttempts: 2 });
  const pollers = new Map<string, SqsPoller>();
  for (const worker of config.workers) {
    const queue = config.queues[worker.queue]!;
    // require, not import(): in a worker thread only tsx's CommonJS hook is registered.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(join(PROJECT_ROOT, worker.entry)) as { handler?: WorkerHandler };
    if (!module.handler) throw new Error(`${worker.entry} does not export a handler`);
    pollers.set(
      worker.name,
      new SqsPoller({
        name: worker.name,
        sqs,
        queueUrl: queue.url,
        queueArn: queue.arn,
        handler: module.handler,
        batchSize: worker.batchSize,
        timeoutSeconds: worker.timeoutSeconds,
        concurrency: worker.maxConcurrency,
        log,
      }),
    );
  }
  for (const poller of pollers.values()) poller.start();
  return {
    isRunning: (name) => pollers.get(name)?.isRunning() ?? false,
    stop: async () => {
      await Promise.all([...pollers.values()].map((poller) => poller.stop()));
      sqs.destroy();
    },
  };
}
