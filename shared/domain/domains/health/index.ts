/**
 * A domain's health, from the DNS answers of its records (./finding.ts says what a finding is): which
 * names to ask (`healthQueries`), then every check family's findings, high impact first, and a summary.
 * Pure; the use case (shared/usecases/domains/health.ts) asks DNS.
 */
import type { Domain } from '../domain';
import type { Lookup } from '../evaluate';
import type { DnsSettings } from '../records';
import { evaluateBimiHealth } from './bimi';
import { evaluateDkimHealth } from './dkim';
import { evaluateDmarcHealth } from './dmarc';
import { HEALTH_CHECKS, type HealthCheck, type HealthFinding } from './finding';
import { evaluateInboundMxHealth } from './inbound-mx';
import { evaluateLinkDomainHealth, type LinkDomainState } from './link-domain';
import { evaluateMtaStsHealth } from './mta-sts';
import { evaluateReputationHealth, type ReputationFigures } from './reputation';
import { evaluateSpfHealth } from './spf';
import { evaluateTlsRptHealth } from './tls-rpt';

export type HealthSubject = Pick<
  Domain,
  'name' | 'dkim_selector' | 'dkim_public_key' | 'records' | 'inbound_enabled' | 'inbound_subdomain' | 'dmarc_reports_address'
>;

/** The names asked (TXT unless said): SPF's includes come on top, as `spfTargets` finds them. */
export function healthQueries(domain: HealthSubject) {
  return {
    spf: domain.name,
    dkim: `${domain.dkim_selector}._domainkey.${domain.name}`,
    dmarc: `_dmarc.${domain.name}`,
    /** MX; null when the domain does not receive. */
    inbound_mx: domain.inbound_enabled && domain.inbound_subdomain ? domain.inbound_subdomain : null,
    mta_sts: `_mta-sts.${domain.name}`,
    tls_rpt: `_smtp._tls.${domain.name}`,
    bimi: `default._bimi.${domain.name}`,
  };
}

export interface HealthAnswers {
  /** TXT answers of the domain and of the SPF includes fetched, by lower-case name. */
  spf: ReadonlyMap<string, Lookup>;
  dkim: Lookup;
  dmarc: Lookup;
  /** null when the domain does not receive (not asked). */
  inbound_mx: Lookup | null;
  mta_sts: Lookup;
  tls_rpt: Lookup;
  bimi: Lookup;
  /** The sender's emails of the last days (./reputation.ts). */
  reputation: ReputationFigures;
  /** The domain's link domain as stored (./link-domain.ts); null when it has none. */
  link_domain: LinkDomainState | null;
}

/** ok: no finding; issues: findings to act on; error: a lookup failed, so it could not be checked; skipped: not applicable (an inbound MX of a domain that does not receive; reputation with too few emails sent). */
export type CheckOutcome = 'ok' | 'issues' | 'error' | 'skipped';

export interface HealthSummary {
  open: number;
  high: number;
  low: number;
  /** DNS-querying SPF terms, nested includes counted (RFC 7208's limit is 10); null without one SPF record. */
  spf_lookups: number | null;
  checks: Record<HealthCheck, CheckOutcome>;
}

export function evaluateHealth(
  domain: HealthSubject,
  answers: HealthAnswers,
  settings: Pick<DnsSettings, 'spfInclude' | 'inboundMxHost'>,
  checkedAt: string,
): { findings: HealthFinding[]; summary: HealthSummary } {
  const queries = healthQueries(domain);
  const dkimRecord = domain.records.find((record) => record.purpose === 'dkim');
  const spf = evaluateSpfHealth({ domain: domain.name, include: settings.spfInclude, answers: answers.spf });
  const byCheck: Record<HealthCheck, HealthFinding[] | null> = {
    spf: spf.findings,
    dkim: evaluateDkimHealth({
      name: queries.dkim,
      expectedValue: dkimRecord?.value ?? `v=DKIM1; k=rsa; p=${domain.dkim_public_key}`,
      publicKey: domain.dkim_public_key,
      lookup: answers.dkim,
    }),
    dmarc: evaluateDmarcHealth({ domain: domain.name, lookup: answers.dmarc, reportAddress: domain.dmarc_reports_address }),
    inbound_mx:
      queries.inbound_mx && answers.inbound_mx
        ? evaluateInboundMxHealth({ subdomain: queries.inbound_mx, mxHost: settings.inboundMxHost, lookup: answers.inbound_mx })
        : null,
    mta_sts: evaluateMtaStsHealth({ domain: domain.name, checkedAt, lookup: answers.mta_sts }),
    tls_rpt: evaluateTlsRptHealth({ domain: domain.name, lookup: answers.tls_rpt }),
    bimi: evaluateBimiHealth({ domain: domain.name, lookup: answers.bimi }),
    reputation: evaluateReputationHealth({ domain: domain.name, figures: answers.reputation }),
    link_domain: evaluateLinkDomainHealth(answers.link_domain),
  };
  const findings = HEALTH_CHECKS.flatMap((check) => byCheck[check] ?? []).sort((a, b) =>
    a.impact === b.impact ? 0 : a.impact === 'high' ? -1 : 1,
  );
  const checks = Object.fromEntries(
    HEALTH_CHECKS.map((check): [HealthCheck, CheckOutcome] => {
      const found = byCheck[check];
      if (found === null) return [check, 'skipped'];
      if (found.some((f) => f.type !== 'dns_error')) return [check, 'issues'];
      return [check, found.length ? 'error' : 'ok'];
    }),
  ) as Record<HealthCheck, CheckOutcome>;
  const open = findings.filter((f) => f.status === 'open');
  return {
    findings,
    summary: {
      open: open.length,
      high: open.filter((f) => f.impact === 'high').length,
      low: open.filter((f) => f.impact === 'low').length,
      spf_lookups: spf.lookups,
      checks,
    },
  };
}
