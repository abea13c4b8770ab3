/** Starts the local workers in their own thread and stops them on request. */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkersConfig } from './workers-runtime';

export interface WorkersThread {
  alive(): boolean;
  stop(): Promise<void>;
}

export function startWorkersThread(config: WorkersConfig, log: (message: string) => void): Promise<WorkersThread> {
  const worker = new Worker(join(__dirname, 'workers-thread-entry.cjs'), { workerData: config });
  let alive = true;
  worker.on('exit', () => {
    alive = false;
  });
  return new Promise((resolveStart, reject) => {
    worker.on('error', (error) => {
      alive = false;
      reject(error);
    });
    worker.on('message', (message: { type: string; message?: string; error?: string }) => {
      if (message.type === 'log') log(message.message ?? '');
      else if (message.type === 'failed') reject(new Error(`local workers failed to start: ${message.error}`));
      else if (message.type === 'ready') {
        resolveStart({
          alive: () => alive,
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
    });
  });
}
