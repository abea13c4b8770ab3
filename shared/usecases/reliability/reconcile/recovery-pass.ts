/**
 * What one reconciler pass (../reconcile.ts) shares with the recoverer of each due entry
 * (./recoverers.ts): the pass's time, its counters, and the re-drives it sends in batches once every
 * entry is handled (the send queue takes them 10 a call, the automation-steps queue all at once), each
 * entry's due time moved only after its message is on the queue (./redrive-batches.ts).
 */
import type { AutomationStepMessage, SendMessage } from '#shared/domain/messages';
import type { DueEntryOf, DueKind } from '#shared/adapters/store/due-work';

/** The report's counters a pass adds to (the ReconcileReport fields of the same names). */
export type PassCounter =
  | 'waiting'
  | 'cleared'
  | 'delayed'
  | 'expired'
  | 'reannounced'
  | 'redriven_queued'
  | 'redriven_scheduled'
  | 'redriven_webhooks'
  | 'redriven_runs'
  | 'domains_completed'
  | 'errors';

/** Adds `by` (1 unless given) to one of the pass's counters. */
export type Count = (counter: PassCounter, by?: number) => void;

/** How a pass reports a failure it survives (the entry stays due and is tried on the next pass). */
export type PassLog = (message: string, error: unknown) => void;

/** An email to put on the send queue again; `postpone` moves its due time once it is on the queue. */
export interface RedriveSend {
  message: SendMessage;
  stage: 'queued' | 'scheduled';
  postpone: () => Promise<unknown>;
}

/** An automation run's step (or wake-up) to put on the automation-steps queue again, then postponed. */
export interface RedriveStep {
  message: AutomationStepMessage;
  postpone: () => Promise<unknown>;
}

export interface RecoveryPass {
  /** The pass's time, epoch ms. */
  now: number;
  count: Count;
  sends: RedriveSend[];
  steps: RedriveStep[];
}

/** Handles one past-due entry of kind K; throws when it could not (counted as an error by the pass). */
export type Recoverer<K extends DueKind, Deps> = (entry: DueEntryOf<K>, deps: Deps, pass: RecoveryPass) => Promise<void>;
