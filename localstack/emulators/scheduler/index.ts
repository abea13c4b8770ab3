/**
 * EventBridge Scheduler emulator for the embedded local cloud (no emulator exists on npm).
 *
 * Speaks the Scheduler REST-JSON API closely enough for the unmodified `@aws-sdk/client-scheduler`
 * (schedules, schedule groups, group tags), fires one-time at() schedules by sending their input to
 * SQS queue targets, and keeps its state in `<dataDir>/schedules.json` (or in memory only).
 * See docs/local-cloud/scheduler.md for what is supported.
 */
import { listenHttp } from '../http-server';
import { createSchedulerServer } from './server';
import type { TargetAuthorizer } from './sqs-target';
import { openSchedulerState, type SchedulerEmulatorOptions } from './state';

export { atExpression } from './expressions';
export type { SchedulerEmulatorOptions } from './state';

export interface SchedulerEmulator {
  url: string; // e.g. http://127.0.0.1:45678
  port: number;
  /** Number of schedules currently stored (for health/tests). */
  count(): number;
  /** Decides whether a schedule's role may send to its target queue (the local cloud's IAM, once it has deployed the roles). */
  authorizeTargets(authorizer: TargetAuthorizer): void;
  stop(): Promise<void>; // closes the server, clears timers, flushes state to disk
}

export async function startSchedulerEmulator(opts: SchedulerEmulatorOptions): Promise<SchedulerEmulator> {
  const host = opts.host ?? '127.0.0.1';
  const state = await openSchedulerState(opts);
  const { store, engine, sender, log } = state;
  const server = createSchedulerServer(state);

  const url = await listenHttp(server, { port: opts.port, host });
  engine.start();
  log(`scheduler: listening on ${url}${opts.dataDir ? ` (data in ${opts.dataDir})` : ' (in memory)'}`);

  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Requests still running get a moment to finish; then their connections are cut.
    const cut = setTimeout(() => server.closeAllConnections(), 1000);
    await closed;
    clearTimeout(cut);
    await engine.stop();
    sender.destroy();
    await store.flush();
  };

  return {
    url,
    port: Number(new URL(url).port),
    count: () => store.scheduleCount(),
    authorizeTargets: (authorizer: TargetAuthorizer) => {
      sender.authorize = authorizer;
    },
    stop: () => (stopping ??= stop()),
  };
}
