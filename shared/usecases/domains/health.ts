/**
 * A domain's health checked live: its SPF, DKIM, DMARC, inbound MX, MTA-STS, TLS-RPT and BIMI records
 * checked live in DNS (through the DnsResolver port, DNS_RESOLVERS) and read by the pure checks of
 * shared/domain/domains/health/ (./stored-health.ts stores it). Cost: 6 TXT queries (7 with the MX of a receiving
 * domain) at once, then one TXT query per name the SPF record includes, level by level, at most
 * MAX_SPF_NAMES. Each query gets LOOKUP_TIMEOUT_MS and the SPF walk TOTAL_BUDGET_MS: a lookup that fails or
 * runs out of time is a `dns_error` finding of its check, never a failed request.
 */
import type { LinkDomainRepository } from '#shared/adapters/store/link-domains';
import type { LinkDomainState } from '#shared/domain/domains/health/link-domain';
import { linkDomainOf } from './link-domain/own';
import type { Domain } from '../../domain/domains/domain';
import type { Lookup } from '../../domain/domains/evaluate';
import { evaluateHealth, healthQueries, type HealthSummary } from '../../domain/domains/health';
import type { HealthFinding } from '../../domain/domains/health/finding';
import { isSpfRecord, spfTargets } from '../../domain/domains/health/spf';
import type { DnsSettings } from '../../domain/domains/records';
import type { Clock } from '../../ports/clock';
import type { DnsResolver } from '../../ports/dns';
import type { DomainRepository } from '../../adapters/store/domains/repository';
import type { AccountStatsRepository } from '../../adapters/store/account-stats';
import type { TenantStatsRepository } from '../../adapters/store/tenant-stats';
import { REPUTATION_WINDOW_DAYS, type ReputationFigures } from '../../domain/domains/health/reputation';
import { sumFigures } from '../../domain/reputation/figures';
import { daysBack, utcDay } from '../../domain/tenants/ramp';
import { withTimeout } from '../../lib/concurrency';

/** The domain and the names its SPF record includes, transitively (11 distinct names already prove the limit crossed). */
export const MAX_SPF_NAMES = 25;
export const LOOKUP_TIMEOUT_MS = 4000;
export const TOTAL_BUDGET_MS = 10_000;

export interface DomainHealthDeps {
  domains: DomainRepository;
  dns: Pick<DnsResolver, 'txt' | 'mx'>;
  clock: Clock;
  dnsSettings: Pick<DnsSettings, 'spfInclude' | 'inboundMxHost'>;
  /** The day counters the reputation check reads (a tenant's domain: its tenant's; else the account's). */
  accountStats: Pick<AccountStatsRepository, 'read'>;
  tenantStats: Pick<TenantStatsRepository, 'read'>;
  /** The domain's link domain, whose state the link_domain check reports (docs/tracking.md, "Link domains"). */
  linkDomains: Pick<LinkDomainRepository, 'get'>;
  /** Test seams: the bounds above. */
  lookupTimeoutMs?: number;
  totalBudgetMs?: number;
}

export interface DomainHealth {
  object: 'domain_health';
  domain_id: string;
  domain: string;
  checked_at: string;
  findings: HealthFinding[];
  summary: HealthSummary;
}

/** The lookup, or an error answer once `ms` passed or when it throws (the port answers errors, but a bug must not make a 500). */
async function bounded(run: () => Promise<Lookup>, ms: number): Promise<Lookup> {
  const answer = await withTimeout(
    run().catch((error: unknown): Lookup => ({ kind: 'error', message: (error as Error)?.message ?? 'lookup failed' })),
    ms,
  );
  return answer === 'timeout' ? { kind: 'error', message: `no answer within ${ms} ms` } : answer;
}

/** The TXT answers of `domain` and of its SPF includes, breadth first, within the name and time bounds. */
async function spfAnswers(
  deps: DomainHealthDeps,
  domain: string,
  first: Promise<Lookup>,
  deadline: number,
  timeoutMs: number,
): Promise<Map<string, Lookup>> {
  const answers = new Map<string, Lookup>([[domain, await first]]);
  let frontier = [domain];
  while (frontier.length) {
    const next: string[] = [];
    for (const name of frontier) {
      const answer = answers.get(name)!;
      if (answer.kind !== 'found') continue;
      for (const target of answer.values.filter(isSpfRecord).flatMap(spfTargets)) {
        if (!answers.has(target) && !next.includes(target)) next.push(target);
      }
    }
    const remaining = deadline - Date.now();
    const batch = next.slice(0, MAX_SPF_NAMES - answers.size);
    if (!batch.length || remaining <= 0) break;
    const looked = await Promise.all(batch.map((name) => bounded(() => deps.dns.txt(name), Math.min(timeoutMs, remaining))));
    batch.forEach((name, i) => {
      answers.set(name, looked[i]!);
    });
    frontier = batch;
  }
  return answers;
}

/** The live check of a domain already read (the dashboard's domain page shows it beside the records). */
export async function checkDomainHealth(deps: DomainHealthDeps, domain: Domain): Promise<DomainHealth> {
  const timeoutMs = deps.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS;
  // Real time, not the service clock (the local cloud can move that one).
  const deadline = Date.now() + (deps.totalBudgetMs ?? TOTAL_BUDGET_MS);
  const queries = healthQueries(domain);
  const txt = (name: string) => bounded(() => deps.dns.txt(name), timeoutMs);
  const [link_domain, reputation, spf, dkim, dmarc, inbound_mx, mta_sts, tls_rpt, bimi] = await Promise.all([
    linkDomainState(deps, domain),
    reputationFigures(deps, domain),
    spfAnswers(deps, queries.spf, txt(queries.spf), deadline, timeoutMs),
    txt(queries.dkim),
    txt(queries.dmarc),
    queries.inbound_mx ? bounded(() => deps.dns.mx(queries.inbound_mx!), timeoutMs) : null,
    txt(queries.mta_sts),
    txt(queries.tls_rpt),
    txt(queries.bimi),
  ]);
  const checked_at = deps.clock.now().toISOString();
  const { findings, summary } = evaluateHealth(
    domain,
    { spf, dkim, dmarc, inbound_mx, mta_sts, tls_rpt, bimi, reputation, link_domain },
    deps.dnsSettings,
    checked_at,
  );
  return { object: 'domain_health', domain_id: domain.id, domain: domain.name, checked_at, findings, summary };
}

/** The domain's own link domain as stored (./link-domain/own.ts), for the link_domain check. */
async function linkDomainState(deps: Pick<DomainHealthDeps, 'linkDomains'>, domain: Domain): Promise<LinkDomainState | null> {
  const stored = await linkDomainOf(deps, domain, { consistent: false });
  return stored ? { host: stored.hosting.host, status: stored.hosting.status, message: stored.hosting.message } : null;
}

/** The last REPUTATION_WINDOW_DAYS days of the domain's sender: its tenant's day counters, or the account's (one batch read). */
async function reputationFigures(
  deps: Pick<DomainHealthDeps, 'accountStats' | 'tenantStats' | 'clock'>,
  domain: Domain,
): Promise<ReputationFigures> {
  const days = daysBack(utcDay(deps.clock.now()), REPUTATION_WINDOW_DAYS);
  if (domain.tenant_id && domain.tenant) {
    const perDay = await deps.tenantStats.read(domain.tenant_id, days);
    const sum = (field: 'bounce_blocked_reputation' | 'bounce_blocked_content') => perDay.reduce((total, day) => total + day[field], 0);
    return {
      scope: { kind: 'tenant', tenant: domain.tenant },
      ...sumFigures(perDay),
      blocked_reputation: sum('bounce_blocked_reputation'),
      blocked_content: sum('bounce_blocked_content'),
    };
  }
  const perDay = await deps.accountStats.read(domain.account_id, days);
  const sum = (category: 'blocked_reputation' | 'blocked_content') => perDay.reduce((total, day) => total + day.categories[category], 0);
  return {
    scope: { kind: 'account' },
    ...sumFigures(perDay),
    blocked_reputation: sum('blocked_reputation'),
    blocked_content: sum('blocked_content'),
  };
}
