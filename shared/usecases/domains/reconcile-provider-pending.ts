/**
 * The reconciler's DOMAIN entries (shared/usecases/reliability/reconcile.ts): a domain whose DNS records all checked
 * out while the mail provider (SES) was still verifying it is put in the due index by that check
 * (shared/adapters/store/domains/checks.ts recordCheck). Past due, it is read consistently and, still waiting for the
 * provider, completed through the same function as GET /domains/{id} (./complete-provider-verification.ts):
 *
 *   SES says verified                     -> recorded `verified` (its write leaves the index): sends pass
 *   SES says failed                       -> recorded (provider `failed`; verify again restarts SES), out of the index
 *   SES still pending                     -> asked again later: every 2 min in the first hour, then every
 *                                            15 min (shared/domain/domains/provider-recheck.ts)
 *   still pending 72 h after the first    -> out of the index (SES's window is over)
 *     pending check
 *   no longer waiting (a write left it)   -> out of the index
 *   SES unreachable                       -> left due (an error of the pass), asked on the next pass
 *
 * Every write is conditional on the check read (`last_checked_at`): a check recorded meanwhile wins and
 * has put the domain in the index, or taken it out, itself.
 */
import { nextProviderRecheckAt } from '../../domain/domains/provider-recheck';
import type { RecoveryBounds } from '../../domain/reliability/bounds';
import type { DomainChecks } from '../../adapters/store/domains/checks';
import { completeProviderVerification, waitsForProvider, type ProviderCompletionDeps } from './complete-provider-verification';

export interface ProviderPendingDeps extends ProviderCompletionDeps {
  domains: ProviderCompletionDeps['domains'] & Pick<DomainChecks, 'postponeProviderRecheck' | 'clearProviderRecheck'>;
  bounds: Pick<RecoveryBounds, 'providerRecheckMs' | 'providerRecheckLateMs'>;
}

export interface ProviderPendingReport {
  /** Domains the provider verified meanwhile, recorded `verified` by the reconciler (no GET or verify needed). */
  domains_completed: number;
}

export const NO_PROVIDER_PENDING_WORK: ProviderPendingReport = { domains_completed: 0 };

/** What became of one DOMAIN entry (the reconciler counts them). */
export type ProviderPendingOutcome = 'completed' | 'postponed' | 'cleared' | 'skipped';

/** One past-due DOMAIN entry. Throws when the provider could not be asked (the entry stays due). */
export async function reconcileProviderPending(deps: ProviderPendingDeps, domainId: string, now: number): Promise<ProviderPendingOutcome> {
  const stored = await deps.domains.get(domainId);
  // Deleted: its index entry went with it.
  if (!stored) return 'skipped';
  const { domain } = stored;
  if (!waitsForProvider(domain)) {
    await deps.domains.clearProviderRecheck(domain.id, domain.last_checked_at);
    return 'cleared';
  }
  const completion = await completeProviderVerification(deps, domain.account_id, domain);
  switch (completion.kind) {
    case 'unreachable':
      throw completion.error;
    case 'recorded':
      return completion.provider === 'verified' ? 'completed' : 'cleared';
    case 'superseded':
    case 'not_waiting':
      // Another check was recorded since the read: it set the index itself.
      return 'skipped';
    case 'pending': {
      // Written by the first pending check (absent only on a domain pending from before it existed: from its last check).
      const since = Date.parse(stored.providerPendingSince ?? domain.last_checked_at);
      const next = nextProviderRecheckAt(deps.bounds, Number.isNaN(since) ? now : since, now);
      if (next === null) {
        await deps.domains.clearProviderRecheck(domain.id, domain.last_checked_at);
        return 'cleared';
      }
      await deps.domains.postponeProviderRecheck(domain.id, domain.last_checked_at, next);
      return 'postponed';
    }
  }
}
