/**
 * EventBridge Scheduler emulator for the embedded local cloud (no emulator exists on npm).
 *
 * Speaks the Scheduler REST-JSON API closely enough for the unmodified `@aws-sdk/client-scheduler`
 * (schedules, schedule groups, group tags), fires one-time at() schedules by sending their input to
 * SQS queue targets, and keeps its state in `<dataDir>/schedules.json` (or in memory only).
 * See docs/local-cloud/scheduler.md for what is supported.
 */
import { listenHttp } from '../http-server';
import { FiringEngine } from './firing';
import { SchedulerOperations } from './operations';
import { createSchedulerServer } from './server';
import { SqsTargetSender, type TargetAuthorizer } from './sqs-target';
import { SchedulerStore } from './store';

export { atExpression } from './expressions';

export interface SchedulerEmulatorOptions {
  port?: number; // default 0 = ephemeral
  host?: string; // default '127.0.0.1'
  dataDir?: string; // absolute path; undefined = memory only
  region?: string; // default 'us-east-1'
  accountId?: string; // default '000000000000'
  sqs: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  log?: (msg: string) => void; // optional; default silent
}

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
  const log = opts.log ?? (() => undefined);
  const region = opts.region ?? 'us-east-1';
  const accountId = opts.accountId ?? '000000000000';
  const host = opts.host ?? '127.0.0.1';

  const store = new SchedulerStore(opts.dataDir, `arn:aws:scheduler:${region}:${accountId}`);
  await store.load(Date.now());
  const sender = new SqsTargetSender(opts.sqs);
  const engine = new FiringEngine({ store, sender, log });
  const ops = new SchedulerOperations(store, engine);
  const server = createSchedulerServer(ops, store, log);

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
