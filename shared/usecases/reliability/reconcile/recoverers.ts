/**
 * The reconciler's table of recoverers: one per kind of due-index entry, each carrying out the pure
 * recovery policy of its item (./recover-*-entry.ts). A kind added to the due index does not compile
 * until it has a recoverer here.
 */
import type { DueEntryOf, DueKind } from '#shared/adapters/store/due-work';
import type { ProviderPendingDeps } from '../../domains/reconcile-provider-pending';
import { recoverDeliveryEntry, type DeliveryRecoveryDeps } from './recover-delivery-entry';
import { recoverDomainEntry } from './recover-domain-entry';
import { recoverEmailEntry, type EmailRecoveryDeps } from './recover-email-entry';
import { recoverRunEntry, type RunRecoveryDeps } from './recover-run-entry';
import type { Recoverer, RecoveryPass } from './recovery-pass';

/** What the recoverers use, all of them. */
export type RecoverersDeps = EmailRecoveryDeps & DeliveryRecoveryDeps & RunRecoveryDeps & ProviderPendingDeps;

export const RECOVERERS: { [K in DueKind]: Recoverer<K, RecoverersDeps> } = {
  EMAIL: recoverEmailEntry,
  DELIVERY: recoverDeliveryEntry,
  RUN: recoverRunEntry,
  DOMAIN: recoverDomainEntry,
};

/** One past-due entry handed to the recoverer of its kind. */
export async function recoverDueEntry<K extends DueKind>(entry: DueEntryOf<K>, deps: RecoverersDeps, pass: RecoveryPass): Promise<void> {
  const recover: Recoverer<K, RecoverersDeps> = RECOVERERS[entry.kind as K];
  await recover(entry, deps, pass);
}
