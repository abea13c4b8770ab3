/**
 * Worker-thread entry of the local Lambda workers. Messages: in `{type: 'stop'}`, `{type: 'status', id}`,
 * `{type: 'run-task', id, name}`; out `{type: 'ready'}`, `{type: 'failed', error}`, `{type: 'stopped'}`,
 * `{type: 'log', message}`, `{type: 'status', id, streams, streamReads, tasks, lambda}`, `{type: 'task-ran', id, task}`
 * (the task's status after the pass, null when there is no such task). The thread's environment is the main thread's at creation (the
 * functions' configuration).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { shareClockOffset } from '#shared/adapters/clock';
import { billingSnapshot } from '../lambda/lambda-billing';
import { startWorkers, type WorkersConfig } from './workers-runtime';

const port = parentPort!;
const log = (message: string) => port.postMessage({ type: 'log', message });

// The functions' clock: the same offset cell as the main thread's (localstack/cloud/stack/local-clock.ts).
const { clockOffsetCell, ...config } = workerData as WorkersConfig & { clockOffsetCell?: SharedArrayBuffer };
if (clockOffsetCell) shareClockOffset(clockOffsetCell);

startWorkers(config as WorkersConfig, log).then(
  (running) => {
    port.on('message', (message: { type: string; id?: number; name?: string }) => {
      if (message.type === 'run-task') {
        void running.runTask(message.name ?? '').then((task) => port.postMessage({ type: 'task-ran', id: message.id, task }));
        return;
      }
      if (message.type === 'status')
        port.postMessage({
          type: 'status',
          id: message.id,
          streams: running.streamStatus(),
          streamReads: running.streamReads(),
          tasks: running.taskStatus(),
          lambda: billingSnapshot(),
        });
      if (message.type !== 'stop') return;
      running.stop().then(() => port.postMessage({ type: 'stopped' }));
    });
    port.postMessage({ type: 'ready' });
  },
  (error: unknown) => port.postMessage({ type: 'failed', error: (error as Error).stack ?? String(error) }),
);
