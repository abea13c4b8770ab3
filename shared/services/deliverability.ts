/**
 * Deliverability's own module (docs/deliverability.md): stored domain health checks, the accounts' day
 * counters they read, and DMARC aggregate reports. Only the functions that verify domains, check their health or read reports compose it (the domains
 * group, the dashboard's domain pages, the reconciler, the domain-health task, the inbound worker), so the
 * send path's bundles carry none of it.
 */
import { DmarcAddressRepository } from '../adapters/store/dmarc-addresses';
import { DmarcReportRepository } from '../adapters/store/dmarc-reports';
import { DomainHealthRepository } from '../adapters/store/domain-health';
import { AccountStatsRepository } from '../adapters/store/account-stats';
import type { Platform } from './platform';

/** The accounts' day counters (the account group's GET /account/stats reads them too). */
export function buildAccountStats(core: Pick<Platform, 'table'>) {
  return { accountStats: new AccountStatsRepository(core.table) };
}

export type AccountStatsServices = ReturnType<typeof buildAccountStats>;

export function buildDeliverability(core: Pick<Platform, 'table'>) {
  const { table } = core;
  return {
    /** Stored domain health checks and when each domain is checked next. */
    domainHealth: new DomainHealthRepository(table),
    /** DMARC aggregate reports: the report addresses' domains, the figures. */
    dmarcAddresses: new DmarcAddressRepository(table),
    dmarcReports: new DmarcReportRepository(table),
    /** The accounts' (and the deployment's) day counters: the health check's reputation figures. */
    ...buildAccountStats(core),
  };
}

export type DeliverabilityServices = ReturnType<typeof buildDeliverability>;
