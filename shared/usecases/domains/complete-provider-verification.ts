/**
 * Completing a domain's verification with the mail provider (docs/domains.md, "Registration with the
 * mail provider (SES)"): a domain whose required records all checked out at its last check while SES was
 * still verifying it (`provider.status: pending`) is verified in our store once SES says it can send.
 * One function for both doors: GET /domains/{id} (shared/usecases/domains/manage.ts getDomain) asks at once, the
 * reconciler (shared/usecases/domains/reconcile-provider-pending.ts) asks on its own every few minutes.
 */
import type { Domain } from '../../domain/domains/domain';
import { domainStatusAfterCheck } from '../../domain/domains/evaluate';
import { providerVerification, statusWithProvider } from '../../domain/domains/provider-verification';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { Mailer } from '../../ports/mail';
import type { ProviderDomainState } from '../../domain/domains/provider-verification';
import type { DomainChecks } from '../../adapters/store/domains/checks';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import { checkHealthWhenVerified, type HealthOnVerifyDeps } from './health-on-verify';

export interface ProviderCompletionDeps extends HealthOnVerifyDeps {
  domains: Pick<DomainChecks, 'recordCheck'> & Pick<DomainCrud, 'get'>;
  mailer: Pick<Mailer, 'domainState'>;
  clock: Clock;
}

export type ProviderCompletion =
  /** Not waiting for the provider: verified already, never registered, or its records no longer all check out. */
  | { kind: 'not_waiting' }
  /** The provider could not be asked (logged). */
  | { kind: 'unreachable'; error: unknown }
  /** The provider still verifies it: nothing recorded. */
  | { kind: 'pending'; state: ProviderDomainState }
  /** The provider's final answer, recorded: `verified` (the domain is), or `failed` (SES gave up: verify again restarts it). */
  | { kind: 'recorded'; domain: Domain; provider: 'verified' | 'failed' }
  /** Another check was recorded since the one read (it wins): the domain as it is now (null: gone). */
  | { kind: 'superseded'; domain: Domain | null };

/** Whether the domain waits for the provider alone: every required record verified at its last check, the provider pending. */
export function waitsForProvider(domain: Domain): domain is Domain & { last_checked_at: string } {
  return (
    domain.status !== 'verified' &&
    domain.provider?.status === 'pending' &&
    domain.last_checked_at !== null &&
    domainStatusAfterCheck('pending', domain.records) === 'verified'
  );
}

/**
 * Asks the provider about a domain of `accountId` waiting for it and records the provider's final answer
 * (verified: the domain becomes `verified`; failed: `provider` says so, the status stays), only while no
 * other check was recorded since the one read (`last_checked_at` unchanged). That write also takes the
 * domain out of the due index (shared/adapters/store/domains/checks.ts recordCheck).
 */
export async function completeProviderVerification(
  deps: ProviderCompletionDeps,
  accountId: string,
  domain: Domain,
): Promise<ProviderCompletion> {
  if (!waitsForProvider(domain)) return { kind: 'not_waiting' };
  let state: ProviderDomainState;
  try {
    state = await deps.mailer.domainState(domain.name);
  } catch (error) {
    logError("could not read the domain's verification from the mail provider", error, { domain_id: domain.id, domain: domain.name });
    return { kind: 'unreachable', error };
  }
  if (state.status === 'pending') return { kind: 'pending', state };
  const at = deps.clock.now().toISOString();
  const provider = providerVerification(state, at);
  const recorded = await deps.domains.recordCheck(accountId, domain.id, {
    status: statusWithProvider(domain.status, provider),
    records: domain.records,
    at,
    inbound_enabled: Boolean(domain.inbound_enabled),
    provider,
    ifCheckedAt: domain.last_checked_at,
    dmarc_reports_address: domain.dmarc_reports_address ?? null,
  });
  if (recorded) {
    await checkHealthWhenVerified(deps, domain, recorded);
    return { kind: 'recorded', domain: recorded, provider: state.status };
  }
  return { kind: 'superseded', domain: (await deps.domains.get(domain.id))?.domain ?? null };
}
