/** In-memory fakes of the DMARC ports and repositories (domains, report addresses, reports) for the use case tests. */
import type { Domain } from '#shared/domain/domains/domain';
import { expectedRecords } from '#shared/domain/domains/records';
import type { DatedRow } from '#shared/domain/dmarc/figures';
import type { DmarcReportsChange } from '#shared/adapters/store/domains/settings';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import type { ReportAddressTarget } from '#shared/adapters/store/dmarc-addresses';
import { reportKeyOf, type SaveReportRequest } from '#shared/adapters/store/dmarc-reports';
import type { Principal } from '#shared/usecases/access/principal';

const settings = { returnPathHost: 'rp.svc.dev', spfInclude: 'spf.svc.dev', inboundMxHost: 'mx.svc.dev' };

export const principal = (account = 'acc_1', tenant: string | null = null): Principal => ({
  account: { id: account } as Principal['account'],
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null },
});

export function domain(fields: Partial<Domain> & { id: string; name: string }): Domain {
  const inbound = fields.inbound_enabled ?? true;
  const subdomain = inbound ? `inbound.${fields.name}` : null;
  return {
    account_id: 'acc_1',
    status: 'verified',
    tenant_id: null,
    tenant: null,
    records: expectedRecords(
      { name: fields.name, ownershipToken: 'tok', dkimSelector: 'svc2611k7q2', dkimPublicKey: 'S0VZ', inboundSubdomain: subdomain },
      settings,
    ),
    dkim_selector: 'svc2611k7q2',
    dkim_public_key: 'S0VZ',
    ownership_token: 'tok',
    open_tracking: false,
    click_tracking: false,
    tls_mode: 'opportunistic',
    inbound_enabled: inbound,
    inbound_subdomain: subdomain,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    verified_at: null,
    last_checked_at: null,
    provider: null,
    ...fields,
  };
}

export function fakes(domains: Domain[]) {
  const byId = new Map(domains.map((d) => [d.id, d]));
  const pointers = new Map<string, ReportAddressTarget[]>();
  const reports = new Map<string, SaveReportRequest>();
  const saves: SaveReportRequest[] = [];
  let failSave = false;
  const stored = (d: Domain | undefined): StoredDomain | null => (d ? { domain: structuredClone(d), sealedPrivateKey: 'sealed' } : null);
  return {
    byId,
    pointers,
    reports,
    saves,
    failSaves() {
      failSave = true;
    },
    clock: { now: () => new Date('2026-11-03T12:00:00Z') },
    domains: {
      async get(id: string) {
        return stored(byId.get(id));
      },
      async findOwned(accountId: string, name: string) {
        return stored([...byId.values()].find((d) => d.account_id === accountId && d.name === name));
      },
      async changeDmarcReports(
        owner: { accountId: string; tenantId: string | null },
        target: Pick<Domain, 'id' | 'name'>,
        change: DmarcReportsChange,
      ) {
        const current = byId.get(target.id);
        if (!current || current.account_id !== owner.accountId || (current.dmarc_reports_address ?? null) !== change.from) return null;
        const records = current.records.map((record, i) => (i === change.recordIndex ? { ...record, value: change.recordValue } : record));
        const next = { ...current, records, dmarc_reports_address: change.to ?? undefined };
        if (change.to === null) delete next.dmarc_reports_address;
        byId.set(current.id, next);
        if (change.from)
          pointers.set(
            change.from,
            (pointers.get(change.from) ?? []).filter((p) => p.domain_id !== current.id),
          );
        if (change.to)
          pointers.set(change.to, [
            ...(pointers.get(change.to) ?? []).filter((p) => p.domain_id !== current.id),
            { account_id: current.account_id, domain_id: current.id, domain: current.name },
          ]);
        return structuredClone(next);
      },
    },
    dmarcAddresses: {
      async domainsFor(address: string) {
        return pointers.get(address) ?? [];
      },
    },
    dmarcReports: {
      async save(request: SaveReportRequest) {
        if (failSave) throw new Error('ProvisionedThroughputExceededException');
        saves.push(request);
        const key = `${request.domainId} ${reportKeyOf(request.report.reporter, request.report.report_id)}`;
        if (reports.has(key)) return 'duplicate' as const;
        reports.set(key, request);
        return 'stored' as const;
      },
      async rowsBetween(domainId: string, since: string, until: string) {
        const kept = [...reports.values()].filter((r) => r.domainId === domainId && r.report.day >= since && r.report.day <= until);
        const rows: DatedRow[] = kept.flatMap((r) =>
          r.report.rows.map((row) => ({ ...row, day: r.report.day, reporter: r.report.reporter })),
        );
        return { rows, reports: kept.length };
      },
    },
  };
}
