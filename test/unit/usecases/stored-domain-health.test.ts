import type { Domain } from '#shared/domain/domains/domain';
import type { Lookup } from '#shared/domain/domains/evaluate';
import { expectedRecords } from '#shared/domain/domains/records';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import type { StoredDomain } from '#shared/adapters/store/domains/stored-domain';
import { runDueHealthChecks, type DueHealthChecksDeps } from '#shared/usecases/domains/due-health-checks';
import { runStoredHealthCheck, storedHealthOf } from '#shared/usecases/domains/stored-health';
import { checkHealthWhenVerified } from '#shared/usecases/domains/health-on-verify';
import { fakeLinkDomains, fakeStats, HEALTHY_ZONE, InMemoryDomainHealth, txt } from './fake-domain-health';

const settings = { returnPathHost: 'rp.svc.dev', spfInclude: 'spf.svc.dev', inboundMxHost: 'mx.svc.dev' };
const DAY = 86_400_000;
const T0 = Date.parse('2026-11-25T10:00:00.000Z');

function domain(id = 'dom_1', name = 'ex.com'): Domain {
  const records = expectedRecords(
    { name, ownershipToken: 'tok', dkimSelector: 'sel', dkimPublicKey: 'S0VZ', inboundSubdomain: null },
    settings,
  );
  return {
    id,
    account_id: 'acc_1',
    name,
    status: 'verified',
    tenant_id: null,
    tenant: null,
    records,
    dkim_selector: 'sel',
    dkim_public_key: 'S0VZ',
    inbound_enabled: false,
    inbound_subdomain: null,
  } as unknown as Domain;
}

const GOOD = HEALTHY_ZONE;

function setup(domains: Domain[] = [domain()]) {
  let now = T0;
  const zone: Record<string, Lookup> = { ...GOOD };
  const events: ServiceEvent[] = [];
  const byId = new Map(domains.map((d) => [d.id, d]));
  const domainHealth = new InMemoryDomainHealth();
  const deps: DueHealthChecksDeps = {
    domains: {
      get: async (id: string) => (byId.has(id) ? ({ domain: byId.get(id)!, sealedPrivateKey: 'x' } as StoredDomain) : null),
    } as unknown as DueHealthChecksDeps['domains'],
    domainHealth,
    ...fakeStats(),
    ...fakeLinkDomains(),
    events: { publish: async (batch) => void events.push(...batch) },
    dns: { txt: async (name: string) => zone[name] ?? { kind: 'none' }, mx: async () => ({ kind: 'none' }) },
    clock: { now: () => new Date(now) },
    dnsSettings: settings,
    lookupTimeoutMs: 50,
    totalBudgetMs: 200,
  };
  return {
    deps,
    zone,
    events,
    domainHealth,
    byId,
    at: (ms: number) => {
      now = ms;
    },
    log: jest.fn(),
  };
}

describe('stored health checks', () => {
  it('a domain never checked is checked on its first read and stored, the next check a day later', async () => {
    const s = setup();
    delete s.zone['_dmarc.ex.com'];
    const health = await storedHealthOf(s.deps, domain());
    expect(health).toMatchObject({ checked_at: new Date(T0).toISOString(), next_check_at: new Date(T0 + DAY).toISOString() });
    expect(health.findings).toEqual([
      expect.objectContaining({ type: 'dmarc_missing', status: 'open', first_seen_at: new Date(T0).toISOString(), fixed_at: null }),
    ]);
    // Read again later: the stored check, not a new one.
    s.at(T0 + 60_000);
    expect((await storedHealthOf(s.deps, domain())).checked_at).toBe(new Date(T0).toISOString());
  });

  it('domain.health_changed fires when a finding opens and when it is fixed, never for an unchanged check', async () => {
    const s = setup();
    delete s.zone['_dmarc.ex.com'];
    await runStoredHealthCheck(s.deps, domain());
    expect(s.events).toHaveLength(1);
    expect(s.events[0]).toMatchObject({
      type: 'domain.health_changed',
      account_id: 'acc_1',
      tenant: null,
      data: {
        domain_id: 'dom_1',
        domain: 'ex.com',
        opened: [
          expect.objectContaining({ type: 'dmarc_missing', impact: 'high', record: expect.objectContaining({ name: '_dmarc.ex.com' }) }),
        ],
        fixed: [],
        summary: { open: 1, high: 1, low: 0 },
      },
    });
    s.at(T0 + DAY);
    await runStoredHealthCheck(s.deps, domain());
    expect(s.events).toHaveLength(1);
    s.zone['_dmarc.ex.com'] = txt('v=DMARC1; p=reject; rua=mailto:dmarc@ex.com');
    s.at(T0 + 2 * DAY);
    const fixed = await runStoredHealthCheck(s.deps, domain());
    expect(fixed.findings).toEqual([
      expect.objectContaining({ type: 'dmarc_missing', status: 'fixed', fixed_at: new Date(T0 + 2 * DAY).toISOString() }),
    ]);
    expect(s.events).toHaveLength(2);
    expect(s.events[1]!.data).toMatchObject({
      opened: [],
      fixed: [expect.objectContaining({ type: 'dmarc_missing' })],
      summary: { open: 0 },
    });
    expect(new Set(s.events.map((event) => event.id)).size).toBe(2);
  });

  it('a check that loses the save to a concurrent one merges again over the winner: one stored version each, one event per change', async () => {
    const s = setup();
    delete s.zone['_dmarc.ex.com'];
    // Another check stores the same finding just before this one saves.
    s.domainHealth.beforeSave = (request) => void s.domainHealth.save({ ...request });
    const health = await runStoredHealthCheck(s.deps, domain());
    expect(s.domainHealth.conflicts).toBe(1);
    expect(health.findings).toEqual([expect.objectContaining({ type: 'dmarc_missing', status: 'open' })]);
    expect((await s.domainHealth.get('dom_1'))!.version).toBe(2);
    // The winner's version-1 event and this check's retry (no change over the winner: no event).
    expect(s.events.map((event) => event.type)).toEqual(['domain.health_changed']);
  });

  it('the same change published twice (a crash before the save) has the same event id', async () => {
    const s = setup();
    delete s.zone['_dmarc.ex.com'];
    const failing = {
      ...s.deps,
      domainHealth: {
        ...s.domainHealth,
        get: s.domainHealth.get.bind(s.domainHealth),
        save: async () => Promise.reject(new Error('table down')),
      },
    };
    await expect(runStoredHealthCheck(failing, domain())).rejects.toThrow('table down');
    await runStoredHealthCheck(s.deps, domain());
    expect(s.events).toHaveLength(2);
    expect(s.events[0]!.id).toBe(s.events[1]!.id);
  });
});

describe('the domain-health task pass', () => {
  it('checks the domains due (daily and just verified), forgets deleted ones, leaves the others', async () => {
    const s = setup([domain('dom_a', 'ex.com'), domain('dom_b', 'ex.com')]);
    await runStoredHealthCheck(s.deps, s.byId.get('dom_a')!);
    // dom_b has just been verified; dom_gone was deleted after it was scheduled.
    await checkHealthWhenVerified({ domainHealth: s.domainHealth, clock: s.deps.clock }, { status: 'pending' }, s.byId.get('dom_b')!);
    await s.domainHealth.checkAt('dom_gone', 'acc_1', new Date(T0));
    s.at(T0 + 1000);
    expect(await runDueHealthChecks(s.deps, { budgetMs: 10_000, log: s.log })).toEqual({ checked: 1, forgotten: 1, errors: 0 });
    expect((await s.domainHealth.get('dom_b'))!.checked_at).toBe(new Date(T0 + 1000).toISOString());
    expect(s.domainHealth.items.has('dom_gone')).toBe(false);
    // A day after its check, dom_a is due again.
    s.at(T0 + DAY);
    expect(await runDueHealthChecks(s.deps, { budgetMs: 10_000, log: s.log })).toEqual({ checked: 1, forgotten: 0, errors: 0 });
    expect((await s.domainHealth.get('dom_a'))!.next_check_at).toBe(new Date(T0 + 2 * DAY).toISOString());
  });

  it('a domain verified again while verified is not brought forward', async () => {
    const s = setup();
    await checkHealthWhenVerified({ domainHealth: s.domainHealth, clock: s.deps.clock }, { status: 'verified' }, domain());
    expect(s.domainHealth.items.size).toBe(0);
  });

  it('a check that fails is counted, logged and stays due', async () => {
    const s = setup();
    await s.domainHealth.checkAt('dom_1', 'acc_1', new Date(T0));
    const broken = { ...s.deps, events: { publish: async () => Promise.reject(new Error('queue down')) } };
    delete s.zone['_dmarc.ex.com'];
    expect(await runDueHealthChecks(broken, { budgetMs: 10_000, log: s.log })).toEqual({ checked: 0, forgotten: 0, errors: 1 });
    expect(s.log).toHaveBeenCalledWith(expect.stringContaining('dom_1'), expect.any(Error));
    expect(await s.domainHealth.pastDue(new Date(T0), 10)).toEqual(['dom_1']);
  });
});

describe('the reputation check in a stored check', () => {
  it("reads the tenant's counters for a tenant's domain and the account's otherwise; a rate crossing a threshold opens a finding", async () => {
    const s = setup();
    const read: string[] = [];
    const account = fakeStats({ sent: 1000, bounced: 60, complained: 0, blocked_reputation: 6 });
    const tenant = fakeStats({ sent: 1000, bounced: 0, complained: 0 });
    const deps = {
      ...s.deps,
      accountStats: {
        read: (id: string, days: readonly string[]) => {
          read.push(`${id}:${days.length}`);
          return account.accountStats.read(id, days);
        },
      },
      tenantStats: {
        read: (id: string, days: readonly string[]) => {
          read.push(`${id}:${days.length}`);
          return tenant.tenantStats.read(id, days);
        },
      },
    };
    const accountWide = await runStoredHealthCheck(deps, domain());
    expect(accountWide.findings.map((f) => f.type)).toEqual(['bounce_rate_high', 'reputation_blocks']);
    expect(accountWide.summary.checks.reputation).toBe('issues');
    const tenants = { ...domain('dom_t'), tenant_id: 'ten_1', tenant: 'acme' } as Domain;
    const tenantHealth = await runStoredHealthCheck(deps, tenants);
    expect(tenantHealth.findings).toEqual([]);
    expect(tenantHealth.summary.checks.reputation).toBe('ok');
    expect(read).toEqual(['acc_1:7', 'ten_1:7']);
  });
});
