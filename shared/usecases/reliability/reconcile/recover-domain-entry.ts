/**
 * A DOMAIN entry of the due index: a domain whose DNS checked out while the mail provider still verifies
 * it, asked about again (../../domains/reconcile-provider-pending.ts) and counted: verified meanwhile (completed),
 * asked again later (waiting), or out of the index (cleared). A provider it could not ask throws: the
 * entry stays due for the next pass.
 */
import type { DueEntryOf } from '#shared/adapters/store/due-work';
import { reconcileProviderPending, type ProviderPendingDeps, type ProviderPendingOutcome } from '../../domains/reconcile-provider-pending';
import type { PassCounter, RecoveryPass } from './recovery-pass';

/** The counter of each outcome (skipped: deleted, or another check moved it meanwhile). */
const COUNTED: Record<ProviderPendingOutcome, PassCounter | null> = {
  completed: 'domains_completed',
  postponed: 'waiting',
  cleared: 'cleared',
  skipped: null,
};

export async function recoverDomainEntry(entry: DueEntryOf<'DOMAIN'>, deps: ProviderPendingDeps, pass: RecoveryPass): Promise<void> {
  const counter = COUNTED[await reconcileProviderPending(deps, entry.domainId, pass.now)];
  if (counter) pass.count(counter);
}
