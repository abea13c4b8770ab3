/**
 * What the Scheduler emulator's operations work on, built once at start and handed to each operation:
 *
 * - the store (./store.ts): schedule groups (with their tags) and schedules, in memory, and with a data
 *   directory persisted as a snapshot and a journal (./state-file.ts). A change is durable once
 *   `store.persist()` resolves: the HTTP front (./server.ts) awaits it before answering a route marked
 *   `mutates` (./routes.ts), so an answered change survives a kill;
 * - the firing timers (./firing.ts): one timer armed for the earliest due at() schedule; an operation that
 *   creates or updates a schedule tells the engine (`engine.notify`). Retry counters are memory only;
 * - the sender to SQS targets (./sqs-target.ts), with the IAM authorization hook the local cloud sets
 *   (`sender.authorize`) once it has deployed the roles;
 * - the options: region and account (in the ARNs the store makes), the SQS connection, the log, the clock.
 */
import { emulatorAccount, type EmulatorOptions } from '../emulator-options';
import { FiringEngine } from './firing';
import { SqsTargetSender } from './sqs-target';
import { SchedulerStore } from './store';

export interface SchedulerEmulatorOptions extends EmulatorOptions {
  sqs: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
}

export interface SchedulerState {
  readonly store: SchedulerStore;
  readonly engine: FiringEngine;
  readonly sender: SqsTargetSender;
  /** The clock of creation and modification dates (epoch ms). */
  readonly now: () => number;
  log(msg: string): void;
}

/** Opens the store (loading what an earlier run left in the data directory) and builds the sender and the firing engine over it. */
export async function openSchedulerState(opts: SchedulerEmulatorOptions): Promise<SchedulerState> {
  const log = opts.log ?? (() => undefined);
  const { region, accountId } = emulatorAccount(opts);

  const store = new SchedulerStore(opts.dataDir, `arn:aws:scheduler:${region}:${accountId}`);
  await store.load(Date.now());
  const sender = new SqsTargetSender(opts.sqs);
  const engine = new FiringEngine({ store, sender, log });
  return { store, engine, sender, now: Date.now, log };
}
