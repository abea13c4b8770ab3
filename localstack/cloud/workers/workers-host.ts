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

/** What the thread posts: its log lines, its answers to `status` and `run-task`, and whether it started. */
interface ThreadMessage {
  type: string;
  message?: string;
  error?: string;
  id?: number;
  streams?: Record<string, string>;
  streamReads?: number;
  tasks?: Record<string, TaskStatus>;
  lambda?: Record<string, FunctionBilling>;
  task?: TaskStatus | null;
}

/** The host's side of the thread: whether it runs, and the questions it has asked and not had answered yet. */
interface ThreadState {
  alive: boolean;
  nextId: number;
  statusWaiters: Map<number, (status: WorkersStatus) => void>;
  taskWaiters: Map<number, (task: TaskStatus | null) => void>;
}

const noStatus = (): WorkersStatus => ({ streams: {}, streamReads: 0, tasks: {}, lambda: {} });

export function startWorkersThread(config: WorkersConfig, log: (message: string) => void): Promise<WorkersThread> {
  const worker = new Worker(workersThreadEntry(), { workerData: { ...config, clockOffsetCell } });
  const state: ThreadState = { alive: true, nextId: 0, statusWaiters: new Map(), taskWaiters: new Map() };
  worker.on('exit', () => answerWaitersOnExit(state));
  return new Promise((resolveStart, reject) => {
    worker.on('error', (error) => {
      state.alive = false;
      reject(error);
    });
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'log') log(message.message ?? '');
      else if (message.type === 'task-ran') answerTaskRan(state, message);
      else if (message.type === 'status') answerStatus(state, message);
      else if (message.type === 'failed') reject(new Error(`local workers failed to start: ${message.error}`));
      else if (message.type === 'ready') resolveStart(threadHandle(worker, state));
    });
  });
}

/** The thread has ended: every question still waiting is answered (empty status, no task). */
function answerWaitersOnExit(state: ThreadState): void {
  state.alive = false;
  for (const resolveStatus of state.statusWaiters.values()) resolveStatus(noStatus());
  state.statusWaiters.clear();
  for (const resolveTask of state.taskWaiters.values()) resolveTask(null);
  state.taskWaiters.clear();
}

function answerTaskRan(state: ThreadState, message: ThreadMessage): void {
  state.taskWaiters.get(message.id!)?.(message.task ?? null);
  state.taskWaiters.delete(message.id!);
}

function answerStatus(state: ThreadState, message: ThreadMessage): void {
  state.statusWaiters.get(message.id!)?.({
    streams: message.streams ?? {},
    streamReads: message.streamReads ?? 0,
    tasks: message.tasks ?? {},
    lambda: message.lambda ?? {},
  });
  state.statusWaiters.delete(message.id!);
}

/** The started thread, as the local cloud uses it. */
function threadHandle(worker: Worker, state: ThreadState): WorkersThread {
  return {
    alive: () => state.alive,
    status: () => askStatus(worker, state),
    // No time limit here: the pass has its function's (the task's timeout, ./scheduled-tasks.ts).
    runTask: (name) => askRunTask(worker, state, name),
    stop: () => stopThread(worker, state),
  };
}

function askStatus(worker: Worker, state: ThreadState): Promise<WorkersStatus> {
  return new Promise((resolveStatus) => {
    if (!state.alive) return resolveStatus(noStatus());
    const id = ++state.nextId;
    const timer = setTimeout(() => {
      state.statusWaiters.delete(id);
      resolveStatus(noStatus());
    }, 2000);
    state.statusWaiters.set(id, (status) => {
      clearTimeout(timer);
      resolveStatus(status);
    });
    worker.postMessage({ type: 'status', id });
  });
}

function askRunTask(worker: Worker, state: ThreadState, name: string): Promise<TaskStatus | null> {
  return new Promise((resolveTask) => {
    if (!state.alive) return resolveTask(null);
    const id = ++state.nextId;
    state.taskWaiters.set(id, resolveTask);
    worker.postMessage({ type: 'run-task', id, name });
  });
}

/** Asks the thread to stop its workers, and terminates it once they have (or after 10 s). */
function stopThread(worker: Worker, state: ThreadState): Promise<void> {
  return new Promise<void>((resolveStop) => {
    if (!state.alive) return resolveStop();
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
  });
}
