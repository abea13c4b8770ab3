/** The tenant deletion steps (shared/usecases/tenants/tenant-cleanup.ts) over in-memory fakes: effects, order, idempotency, resumption. */
import type { Domain } from '#shared/domain/domains/domain';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoint';
import { tenantCleanupSteps, type TenantCleanupDeps } from '#shared/usecases/tenants/tenant-cleanup';
import { FakeSesTenants } from '../../support/fake-ses-tenants';

const TENANT = { id: 'ten_A', account_id: 'acc_1', external_id: 'acme' } as Tenant;

function fakes(options: { suppressions?: number; conflictsOn?: string } = {}) {
  const log: string[] = [];
  let now = 0;
  const keys = new Map([
    ['key_1', { tenant: 'ten_A' }],
    ['key_2', { tenant: null }],
    ['key_3', { tenant: 'ten_A' }],
    ['key_4', { tenant: 'ten_B' }],
  ]);
  const credentials = new Map([
    ['smtp_1', { tenant: 'ten_A' }],
    ['smtp_2', { tenant: 'ten_B' }],
  ]);
  const domains = new Map<string, Pick<Domain, 'id' | 'name' | 'account_id' | 'tenant_id'>>([
    ['dom_1', { id: 'dom_1', name: 'one.test', account_id: 'acc_1', tenant_id: 'ten_A' }],
    ['dom_2', { id: 'dom_2', name: 'two.test', account_id: 'acc_1', tenant_id: 'ten_B' }],
  ]);
  // dom_3's membership is a leftover (its domain is gone): it must not stop the clean-up.
  const memberships = new Set(['ten_A/dom_1', 'ten_A/dom_3', 'ten_B/dom_2']);
  const suppressions = Array.from({ length: options.suppressions ?? 3 }, (_, i) => `s${i}`);
  const optOuts = ['o1'];
  const webhooks = new Map<string, WebhookEndpoint>(
    (
      [
        ['wh_only', ['acme'], true],
        ['wh_both', ['acme', 'globex'], true],
        ['wh_other', ['globex'], true],
        ['wh_all', null, true],
      ] as const
    ).map(([id, tenants, enabled]) => [
      id,
      {
        id,
        account_id: 'acc_1',
        url: 'https://x.test',
        events: [],
        enabled,
        tenants: tenants ? [...tenants] : null,
        delivery: 'push' as const,
        last_pulled_at: null,
        secret_rotated_at: null,
        previous_secret_expires_at: null,
        created_at: '',
        updated_at: '',
      },
    ]),
  );
  // wh_fresh names the tenant but the account's listing (an index) does not show it yet: the tenant's webhook_ids does.
  webhooks.set('wh_fresh', {
    id: 'wh_fresh',
    account_id: 'acc_1',
    url: 'https://x.test',
    events: [],
    enabled: true,
    tenants: ['acme'],
    delivery: 'push' as const,
    last_pulled_at: null,
    secret_rotated_at: null,
    previous_secret_expires_at: null,
    created_at: '',
    updated_at: '',
  });
  const webhookIds = ['wh_fresh', 'wh_only', 'wh_deleted'];
  // The tenant's scheduled emails' list: one scheduled, one that fired meanwhile, one whose email is gone.
  const emails = new Map<string, { status: string; tenant_id: string }>([
    ['msg_1', { status: 'scheduled', tenant_id: 'ten_A' }],
    ['msg_2', { status: 'queued', tenant_id: 'ten_A' }],
    ['msg_4', { status: 'scheduled', tenant_id: 'ten_B' }],
  ]);
  const scheduled = new Set(['ten_A/msg_1', 'ten_A/msg_2', 'ten_A/msg_3', 'ten_B/msg_4']);
  let conflicts = options.conflictsOn ? 1 : 0;
  const ses = new FakeSesTenants();
  ses.tenants.set('ten_A', new Set(['configuration-set', 'identity/one.test']));
  ses.tenants.set('ten_B', new Set(['configuration-set', 'identity/two.test']));

  const deps: TenantCleanupDeps = {
    clock: { now: () => new Date(now) },
    sesTenants: ses,
    apiKeys: {
      tenantKeyIds: async (_acc, tenantId) => [...keys].filter(([, k]) => k.tenant === tenantId).map(([id]) => id),
      delete: async (_acc, id) => {
        log.push(`revoke ${id}`);
        return keys.delete(id) ? 'deleted' : 'not_found';
      },
    },
    smtpCredentials: {
      tenantCredentialIds: async (_acc, tenantId) => [...credentials].filter(([, c]) => c.tenant === tenantId).map(([id]) => id),
      delete: async (_acc, id) => {
        log.push(`revoke ${id}`);
        return credentials.delete(id) ? 'deleted' : 'not_found';
      },
    },
    domains: {
      tenantDomainIds: async (tenantId, limit) =>
        [...memberships]
          .filter((m) => m.startsWith(`${tenantId}/`))
          .slice(0, limit)
          .map((m) => m.split('/')[1]!),
      get: async (id) => (domains.has(id) ? ({ domain: { ...domains.get(id)! }, sealedPrivateKey: '' } as any) : null),
      releaseFromTenant: async (_acc, domain, tenantId) => {
        const stored = domains.get(domain.id);
        if (!stored || stored.tenant_id !== tenantId) return false;
        stored.tenant_id = null;
        memberships.delete(`${tenantId}/${domain.id}`);
        log.push(`release ${domain.id}`);
        return true;
      },
      forgetMembership: async (tenantId, id) => {
        memberships.delete(`${tenantId}/${id}`);
      },
    },
    suppressions: {
      deleteTenantPage: async () => {
        now += 10; // each page takes 10 ms of the budget
        const page = suppressions.splice(0, 2);
        if (page.length) log.push(`suppressions ${page.length}`);
        return page.length;
      },
    },
    categoryOptOuts: {
      deleteTenantPage: async () => {
        const page = optOuts.splice(0, 2);
        if (page.length) log.push(`opt-outs ${page.length}`);
        return page.length;
      },
    },
    tenants: { webhookIdsOf: async () => [...webhookIds] },
    emails: {
      get: async (id) =>
        emails.has(id)
          ? ({ email: { id, account_id: 'acc_1', ...emails.get(id)! }, internals: { usage_reserved: { entries: [], count: 1 } } } as any)
          : null,
      cancelScheduled: async ({ emailId: id, reserved, tenantId }) => {
        const email = emails.get(id);
        if (email?.status !== 'scheduled') return { kind: 'not_scheduled' };
        email.status = 'cancelled';
        scheduled.delete(`${tenantId}/${id}`);
        log.push(`cancel ${id} releasing ${reserved?.count ?? 0}`);
        return { kind: 'cancelled' };
      },
    },
    tenantScheduled: {
      page: async (tenantId, limit) =>
        [...scheduled]
          .filter((m) => m.startsWith(`${tenantId}/`))
          .slice(0, limit)
          .map((m) => m.split('/')[1]!),
      forget: async (tenantId, id) => {
        scheduled.delete(`${tenantId}/${id}`);
      },
    },
    webhooks: {
      listForAccount: async () => [...webhooks.values()].filter((w) => w.id !== 'wh_fresh').map((w) => ({ ...w })),
      get: async (id) =>
        webhooks.has(id)
          ? {
              endpoint: { ...webhooks.get(id)!, tenants: webhooks.get(id)!.tenants && [...webhooks.get(id)!.tenants!] },
              sealedSecret: '',
              previousSealedSecret: null,
            }
          : null,
      replaceTenantFilter: async (id, expected, next) => {
        const current = webhooks.get(id)!;
        if (id === options.conflictsOn && conflicts-- > 0) {
          current.tenants = [...(current.tenants ?? []), 'initech']; // a concurrent PATCH
          return false;
        }
        if (JSON.stringify(current.tenants) !== JSON.stringify(expected)) return false;
        current.tenants = next.tenants;
        current.enabled = next.enabled;
        log.push(`webhook ${id}`);
        return true;
      },
    },
  };
  return { deps, log, keys, credentials, domains, memberships, suppressions, optOuts, webhooks, ses, emails, scheduled };
}

async function runAll(deps: TenantCleanupDeps) {
  for (const step of tenantCleanupSteps(deps)) await step(TENANT, deps.clock.now());
}

describe('tenant clean-up steps', () => {
  it('cancels scheduled emails first, revokes keys and SMTP credentials, then returns domains, deletes the lists, then leaves webhook filters', async () => {
    const f = fakes();
    await runAll(f.deps);
    expect(f.log).toEqual([
      'cancel msg_1 releasing 1',
      'revoke key_1',
      'revoke key_3',
      'revoke smtp_1',
      'release dom_1',
      'suppressions 2',
      'suppressions 1',
      'opt-outs 1',
      'webhook wh_fresh',
      'webhook wh_only',
      'webhook wh_both',
    ]);
    expect(f.emails.get('msg_1')!.status).toBe('cancelled');
    expect(f.emails.get('msg_2')!.status).toBe('queued');
    expect(f.emails.get('msg_4')!.status).toBe('scheduled');
    expect([...f.scheduled]).toEqual(['ten_B/msg_4']);
    expect([...f.keys.keys()]).toEqual(['key_2', 'key_4']);
    expect([...f.credentials.keys()]).toEqual(['smtp_2']);
    expect(f.domains.get('dom_1')!.tenant_id).toBeNull();
    expect(f.domains.get('dom_2')!.tenant_id).toBe('ten_B');
    expect([...f.memberships]).toEqual(['ten_B/dom_2']);
    expect(f.suppressions).toEqual([]);
    expect(f.optOuts).toEqual([]);
    expect(f.webhooks.get('wh_only')).toMatchObject({ tenants: null, enabled: false });
    expect(f.webhooks.get('wh_both')).toMatchObject({ tenants: ['globex'], enabled: true });
    expect(f.webhooks.get('wh_other')).toMatchObject({ tenants: ['globex'], enabled: true });
    expect(f.webhooks.get('wh_all')).toMatchObject({ tenants: null, enabled: true });
    expect(f.webhooks.get('wh_fresh')).toMatchObject({ tenants: null, enabled: false });
  });

  it('is idempotent: a second run changes nothing', async () => {
    const f = fakes();
    await runAll(f.deps);
    const before = f.log.length;
    await runAll(f.deps);
    expect(f.log.slice(before)).toEqual([]);
  });

  it('stops at its time budget with 503 and finishes on the next run', async () => {
    const f = fakes({ suppressions: 9 });
    const deps = { ...f.deps, budgetMs: 35 };
    const steps = tenantCleanupSteps(deps);
    const started = deps.clock.now();
    await steps[0]!(TENANT, started);
    await steps[1]!(TENANT, started);
    await steps[2]!(TENANT, started);
    await expect(steps[3]!(TENANT, started)).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(f.suppressions.length).toBeGreaterThan(0);
    expect(f.suppressions.length).toBeLessThan(9);
    // The client sends DELETE again: a new start, the rest is done.
    for (const step of steps) await step(TENANT, deps.clock.now());
    expect(f.suppressions).toEqual([]);
    expect(f.optOuts).toEqual([]);
  });

  it('re-reads a webhook a concurrent change moved, and keeps that change', async () => {
    const f = fakes({ conflictsOn: 'wh_only' });
    await runAll(f.deps);
    expect(f.webhooks.get('wh_only')).toMatchObject({ tenants: ['initech'], enabled: true });
  });

  it('deletes the SES tenant last (its associations with it), idempotently', async () => {
    const f = fakes();
    await runAll(f.deps);
    expect(f.ses.calls).toEqual(['delete ten_A']);
    expect(f.ses.resourcesOf('ten_A')).toBeUndefined();
    expect(f.ses.resourcesOf('ten_B')).toEqual(['configuration-set', 'identity/two.test']);
    await runAll(f.deps);
    expect(f.ses.calls).toEqual(['delete ten_A', 'delete ten_A']);
  });

  it('SES down at the last step: 503 with what is done kept; the next DELETE finishes', async () => {
    const f = fakes();
    f.ses.down = true;
    await expect(runAll(f.deps)).rejects.toMatchObject({
      status: 503,
      code: 'service_unavailable',
      details: { tenant: 'acme', deleting: true },
    });
    expect([...f.keys.keys()]).toEqual(['key_2', 'key_4']);
    // The SES tenant is still there with every association: the failed step touched nothing.
    expect(f.ses.resourcesOf('ten_A')).toEqual(['configuration-set', 'identity/one.test']);
    f.ses.down = false;
    await runAll(f.deps);
    expect(f.ses.resourcesOf('ten_A')).toBeUndefined();
  });
});
