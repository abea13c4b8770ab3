/**
 * A domain that has just become verified is checked within a minute (docs/deliverability.md, "Domain
 * health"): its next health check is brought forward to now, for the domain-health task's next pass.
 * Both doors that verify a domain call it (./verify.ts, ./complete-provider-verification.ts). A failure to
 * write it never fails the verification (logged); the domain is then first checked when its health is read.
 */
import type { Domain } from '../../domain/domains/domain';
import { logError } from '../../lib/log';
import type { Clock } from '../../ports/clock';
import type { DomainHealthRepository } from '../../adapters/store/domain-health';

export interface HealthOnVerifyDeps {
  domainHealth: Pick<DomainHealthRepository, 'checkAt'>;
  clock: Clock;
}

export async function checkHealthWhenVerified(
  deps: HealthOnVerifyDeps,
  before: Pick<Domain, 'status'>,
  after: Domain | null,
): Promise<void> {
  if (after?.status !== 'verified' || before.status === 'verified') return;
  try {
    await deps.domainHealth.checkAt(after.id, after.account_id, deps.clock.now());
  } catch (error) {
    logError('could not schedule the health check of a domain just verified', error, { domain_id: after.id });
  }
}
