/**
 * Stored health checks (docs/deliverability.md, "Domain health"): a live check (./health.ts) merged with the
 * domain's last stored one (shared/domain/domains/health/history.ts: first seen, open, fixed), saved with the
 * next check a day later, and `domain.health_changed` when a finding opened or was fixed.
 *
 * Who runs a check: GET /domains/{id}/health when the domain was never checked, POST /domains/{id}/health
 * (check now), the dashboard's "Check now", and the domain-health task (./due-health-checks.ts) for every
 * domain whose next check is due: daily, and within a minute of a verification that made it verified.
 *
 * The event is published before the check is saved, with an id derived from the domain and the version
 * the save takes, so a crash in between publishes it again under the same id (delivered once); two checks
 * racing save one (the store's condition) and the loser merges again over the winner.
 */
import type { Domain } from '../../domain/domains/domain';
import {
  hasChanges,
  HEALTH_CHECK_EVERY_MS,
  mergeHealth,
  type HealthChanges,
  type StoredFinding,
  type StoredHealth,
} from '../../domain/domains/health/history';
import { deterministicId } from '../../domain/ids';
import type { ServiceEvent } from '../../domain/webhooks/event';
import type { EventPublisher } from '../../ports/events';
import type { DomainHealthRepository } from '../../adapters/store/domain-health';
import type { Principal } from '../access/principal';
import { owned } from './deps';
import { checkDomainHealth, type DomainHealth, type DomainHealthDeps } from './health';

export interface StoredHealthDeps extends DomainHealthDeps {
  domainHealth: Pick<DomainHealthRepository, 'get' | 'save'>;
  events: EventPublisher;
}

/** The answer of GET and POST /domains/{id}/health: the stored check, fixed findings included. */
export interface StoredDomainHealth extends Omit<DomainHealth, 'findings'> {
  findings: StoredFinding[];
  /** When the domain is checked next (daily). */
  next_check_at: string;
}

/** Saves lost to concurrent checks before this one answers the stored check as it is. */
const SAVE_ATTEMPTS = 3;

function answer(domain: Domain, health: StoredHealth, nextCheckAt: string): StoredDomainHealth {
  return {
    object: 'domain_health',
    domain_id: domain.id,
    domain: domain.name,
    checked_at: health.checked_at,
    next_check_at: nextCheckAt,
    findings: health.findings,
    summary: health.summary,
  };
}

/** A finding as the event names it. */
function eventFinding(finding: StoredFinding) {
  return {
    type: finding.type,
    check: finding.check,
    impact: finding.impact,
    message: finding.message,
    ...(finding.record ? { record: finding.record } : {}),
    docs_url: finding.docs_url,
    first_seen_at: finding.first_seen_at,
    fixed_at: finding.fixed_at,
  };
}

/** domain.health_changed: its id derives from the domain and the stored check's version (one per saved check). */
export function healthChangedEvent(domain: Domain, health: StoredHealth, changes: HealthChanges): ServiceEvent {
  return {
    id: deterministicId('evt', Date.parse(health.checked_at), `${domain.id}:domain.health_changed:${health.version}`),
    type: 'domain.health_changed',
    account_id: domain.account_id,
    tenant: null,
    created_at: health.checked_at,
    data: {
      domain_id: domain.id,
      domain: domain.name,
      tenant: domain.tenant,
      checked_at: health.checked_at,
      opened: changes.opened.map(eventFinding),
      fixed: changes.fixed.map(eventFinding),
      summary: { open: health.summary.open, high: health.summary.high, low: health.summary.low },
    },
  };
}

/** Checks the domain now, stores the result (and raises domain.health_changed when it changed). */
export async function runStoredHealthCheck(deps: StoredHealthDeps, domain: Domain): Promise<StoredDomainHealth> {
  const live = await checkDomainHealth(deps, domain);
  const nextCheckAt = new Date(Date.parse(live.checked_at) + HEALTH_CHECK_EVERY_MS);
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
    const previous = await deps.domainHealth.get(domain.id);
    const { health, changes } = mergeHealth(previous, live);
    if (hasChanges(changes)) await deps.events.publish([healthChangedEvent(domain, health, changes)]);
    if ((await deps.domainHealth.save({ domainId: domain.id, accountId: domain.account_id, health, nextCheckAt })) === 'saved') {
      return answer(domain, health, nextCheckAt.toISOString());
    }
  }
  const stored = await deps.domainHealth.get(domain.id);
  return answer(domain, stored!, stored?.next_check_at ?? nextCheckAt.toISOString());
}

/** The domain's stored check; a domain never checked is checked now (and stored). */
export async function storedHealthOf(deps: StoredHealthDeps, domain: Domain): Promise<StoredDomainHealth> {
  const stored = await deps.domainHealth.get(domain.id);
  if (stored?.next_check_at) return answer(domain, stored, stored.next_check_at);
  return runStoredHealthCheck(deps, domain);
}

/** GET /domains/{id}/health (404 unless the principal may see the domain, as GET /domains/{id}). */
export async function getDomainHealth(deps: StoredHealthDeps, principal: Principal, domainId: string): Promise<StoredDomainHealth> {
  const { domain } = await owned(deps, principal, domainId);
  return storedHealthOf(deps, domain);
}

/** POST /domains/{id}/health: checks now. */
export async function checkDomainHealthNow(deps: StoredHealthDeps, principal: Principal, domainId: string): Promise<StoredDomainHealth> {
  const { domain } = await owned(deps, principal, domainId);
  return runStoredHealthCheck(deps, domain);
}
