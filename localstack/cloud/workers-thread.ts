/**
 * Worker-thread entry of the local Lambda workers. Messages: in `{type: 'stop'}`; out `{type: 'ready'}`,
 * `{type: 'failed', error}`, `{type: 'stopped'}`, `{type: 'log', message}`. The thread's environment
 * is the main thread's at creation (the functions' configuration).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startWorkers, type WorkersConfig } from './workers-runtime';

const port = parentPort!;
const log = (message: string) => port.postMessage({ type: 'log', message });

startWorkers(workerData as WorkersConfig, log).then(
  (running) => {
    port.on('message', (message: { type: string }) => {
      if (message.type !== 'stop') return;
      running.stop().then(() => port.postMessage({ type: 'stopped' }));
    });
    port.postMessage({ type: 'ready' });
  },
  (error: unknown) => port.postMessage({ type: 'failed', error: (error as Error).stack ?? String(error) }),
);
