/** Starts the local workers in their own thread, asks it how its stream pollers are, and stops it on request. */
import { Worker } from 'node:worker_threads';
import type { FunctionBilling } from '../lambda/lambda-billing';
import type { WorkersConfig } from './workers-runtime';
import type { TaskStatus } from './scheduled-tasks';
import { clockOffsetCell } from '../stack/local-clock';
import { workersThreadEntry } from '../program-entries';

export interface WorkersStatus {
  /** Each stream poller's state by worker name ('up' or 'down: <why>'). */
  streams: Record<string, string>;
  /** GetRecords calls on the table's stream since start, all mappings together (../streams/stream-shard-feed.ts). */
  streamReads: number;
  /** Each scheduled task's passes and last report. */
  tasks: Record<string, TaskStatus>;
  /** The thread's invocations and billed duration by function (../lambda/lambda-billing.ts). */
  lambda: Record<string, FunctionBilling>;
}

export interface WorkersThread {
  alive(): boolean;
  /** Stream pollers' and scheduled tasks' states; empty when the thread does not answer within 2 s. */
  status(): Promise<WorkersStatus>;
  /** A pass of the scheduled task `name` now, and its status after it; null when there is no such task or the thread has ended. */
  runTask(name: string): Promise<TaskStatus | null>;
  stop(): Promise<void>;
}

export function startWorkersThread(config: WorkersConfig, log: (message: string) => void): Promise<WorkersThread> {
  const worker = new Worker(workersThreadEntry(), { workerData: { ...config, clockOffsetCell } });
  let alive = true;
  let nextId = 0;
  const statusWaiters = new Map<number, (status: WorkersStatus) => void>();
  const taskWaiters = new Map<number, (task: TaskStatus | null) => void>();
  const none = (): WorkersStatus => ({ streams: {}, streamReads: 0, tasks: {}, lambda: {} });
  worker.on('exit', () => {
    alive = false;
    for (const resolveStatus of statusWaiters.values()) resolveStatus(none());
    statusWaiters.clear();
    for (const resolveTask of taskWaiters.values()) resolveTask(null);
    taskWaiters.clear();
  });
  return new Promise((resolveStart, reject) => {
    worker.on('error', (error) => {
      alive = false;
      reject(error);
    });
    worker.on(
      'message',
      (message: {
        type: string;
        message?: string;
        error?: string;
        id?: number;
        streams?: Record<string, string>;
        streamReads?: number;
        tasks?: Record<string, TaskStatus>;
        lambda?: Record<string, FunctionBilling>;
        task?: TaskStatus | null;
      }) => {
        if (message.type === 'log') log(message.message ?? '');
        else if (message.type === 'task-ran') {
          taskWaiters.get(message.id!)?.(message.task ?? null);
          taskWaiters.delete(message.id!);
        } else if (message.type === 'status') {
          statusWaiters.get(message.id!)?.({
            streams: message.streams ?? {},
            streamReads: message.streamReads ?? 0,
            tasks: message.tasks ?? {},
            lambda: message.lambda ?? {},
          });
          statusWaiters.delete(message.id!);
        } else if (message.type === 'failed') reject(new Error(`local workers failed to start: ${message.error}`));
        else if (message.type === 'ready') {
          resolveStart({
            alive: () => alive,
            status: () =>
              new Promise((resolveStatus) => {
                if (!alive) return resolveStatus(none());
                const id = ++nextId;
                const timer = setTimeout(() => {
                  statusWaiters.delete(id);
                  resolveStatus(none());
                }, 2000);
                statusWaiters.set(id, (status) => {
                  clearTimeout(timer);
                  resolveStatus(status);
                });
                worker.postMessage({ type: 'status', id });
              }),
            // No time limit here: the pass has its function's (the task's timeout, ./scheduled-tasks.ts).
            runTask: (name) =>
              new Promise((resolveTask) => {
                if (!alive) return resolveTask(null);
                const id = ++nextId;
                taskWaiters.set(id, resolveTask);
                worker.postMessage({ type: 'run-task', id, name });
              }),
            stop: () =>
              new Promise<void>((resolveStop) => {
                if (!alive) return resolveStop();
                const force = setTimeout(() => void worker.terminate(), 10_000);
                worker.on('message', (reply: { type: string }) => {
                  if (reply.type !== 'stopped') return;
                  clearTimeout(force);
                  void worker.terminate().then(() => resolveStop());
                });
                worker.once('exit', () => {
                  clearTimeout(force);
                  resolveStop();
                });
                worker.postMessage({ type: 'stop' });
              }),
          });
        }
      },
    );
  });
}
