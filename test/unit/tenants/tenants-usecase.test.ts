/** The tenant use cases with an in-memory fake of the repository: pause rules, resumable delete, who may act. */
import type { Account } from '#shared/domain/accounts/account';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { TenantRepository, StoredTenant } from '#shared/adapters/store/tenants';
import type { Principal } from '#shared/usecases/access/principal';
import { createTenant, deleteTenant, updateTenant, type TenantDeps, type TenantCleanupStep } from '#shared/usecases/tenants/tenants';
import { FakeSesTenants } from '../../support/fake-ses-tenants';

const account: Account = {
  id: 'acc_1',
  email: 'o@x.test',
  plan: 'scale',
  payment_method: true,
  tenants_enabled: true,
  created_at: '',
  updated_at: '',
};
const principal = (over: Partial<Principal['credential']> = {}, acc: Partial<Account> = {}): Principal => ({
  account: { ...account, ...acc },
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null, ...over },
});

function fakeRepository() {
  const rows = new Map<string, StoredTenant>();
  const repo = {
    create: async (tenant: Tenant) => {
      if (rows.has(tenant.external_id)) return { kind: 'duplicate' as const };
      rows.set(tenant.external_id, { tenant: { ...tenant }, ramp: { stage: 1, day: tenant.created_at.slice(0, 10) }, deleting: false });
      return { kind: 'created' as const };
    },
    find: async (_acc: string, ref: string) => rows.get(ref) ?? [...rows.values()].find((row) => row.tenant.id === ref) ?? null,
    update: async (t: Pick<Tenant, 'external_id'>, changes: Partial<Tenant>, now: string, unless?: { pausedBy: 'automated' }) => {
      const row = rows.get(t.external_id);
      if (!row || row.deleting) return null;
      if (unless && row.tenant.pause_source === unless.pausedBy) return null;
      Object.assign(row.tenant, changes, { updated_at: now });
      return { ...row.tenant };
    },
    markDeleting: async (t: Pick<Tenant, 'external_id'>) => {
      const row = rows.get(t.external_id);
      if (!row) return false;
      row.deleting = true;
      return true;
    },
    remove: async (t: Pick<Tenant, 'external_id'>) => rows.delete(t.external_id),
  };
  return { rows, repo: repo as unknown as TenantRepository };
}

function deps(over: Partial<TenantDeps> = {}) {
  const { rows, repo } = fakeRepository();
  let now = Date.parse('2026-11-22T10:00:00.000Z');
  const ses = new FakeSesTenants();
  const d: TenantDeps = {
    tenants: repo,
    clock: {
      now: () => {
        now += 1000;
        return new Date(now);
      },
    },
    dashboardUrl: 'https://dash.test',
    sesTenants: ses,
    ...over,
  };
  return { d, rows, ses };
}

describe('tenant use cases', () => {
  it('pauses manually, keeps the first pause time when paused again, and clears everything on resume', async () => {
    const { d } = deps();
    await createTenant(d, principal(), { external_id: 'acme' });
    const paused = await updateTenant(d, principal(), 'acme', { status: 'paused', reason: 'first' });
    expect(paused).toMatchObject({ status: 'paused', pause_source: 'manual', paused_reason: 'first' });
    const again = await updateTenant(d, principal(), 'acme', { status: 'paused', reason: 'second' });
    expect(again).toMatchObject({ paused_at: paused.paused_at, paused_reason: 'second' });
    expect(await updateTenant(d, principal(), 'acme', { status: 'active' })).toMatchObject({
      status: 'active',
      paused_at: null,
      paused_reason: null,
      pause_source: null,
    });
  });

  it('refuses to resume a tenant the service paused, with 403 forbidden', async () => {
    const { d, rows } = deps();
    await createTenant(d, principal(), { external_id: 'acme' });
    Object.assign(rows.get('acme')!.tenant, { status: 'paused', pause_source: 'automated', paused_reason: 'bounces' });
    await expect(updateTenant(d, principal(), 'acme', { status: 'active' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    expect(rows.get('acme')!.tenant.status).toBe('paused');
  });

  it('runs the cleanup steps in order and finishes an interrupted delete when it is sent again', async () => {
    const ran: string[] = [];
    let failOnce = true;
    const steps: TenantCleanupStep[] = [
      async () => void ran.push('keys'),
      async () => {
        ran.push('suppressions');
        if (failOnce) {
          failOnce = false;
          throw new Error('crash half-way');
        }
      },
      async () => void ran.push('domains'),
    ];
    const { d, rows } = deps({ tenantCleanup: steps });
    await createTenant(d, principal(), { external_id: 'acme' });
    await expect(deleteTenant(d, principal(), 'acme')).rejects.toThrow('crash half-way');
    expect(rows.get('acme')!.deleting).toBe(true);
    // Gone for every other purpose already.
    await expect(updateTenant(d, principal(), 'acme', { name: 'x' })).rejects.toMatchObject({ status: 404 });
    const deleted = await deleteTenant(d, principal(), 'acme');
    expect(deleted.external_id).toBe('acme');
    expect(ran).toEqual(['keys', 'suppressions', 'keys', 'suppressions', 'domains']);
    expect(rows.has('acme')).toBe(false);
    await expect(deleteTenant(d, principal(), 'acme')).rejects.toMatchObject({ status: 404 });
  });

  it('needs tenants enabled (403 tenants_not_enabled) and a key of the whole account to change tenants (403 forbidden)', async () => {
    const { d } = deps();
    await expect(createTenant(d, principal({}, { tenants_enabled: false }), { external_id: 'a' })).rejects.toMatchObject({
      status: 403,
      code: 'tenants_not_enabled',
    });
    const created = await createTenant(d, principal(), { external_id: 'a' });
    const limited = principal({ tenant: created.id });
    await expect(createTenant(d, limited, { external_id: 'b' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(updateTenant(d, limited, 'a', { name: 'x' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(deleteTenant(d, limited, 'a')).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });

  describe('the SES tenant', () => {
    it('is created with the configuration set associated BEFORE the tenant is stored', async () => {
      const { d, rows, ses } = deps();
      const create = d.tenants.create.bind(d.tenants);
      let sesAtStore: string[] | undefined;
      d.tenants.create = async (tenant, limit) => {
        sesAtStore = ses.resourcesOf(tenant.id);
        return create(tenant, limit);
      };
      const tenant = await createTenant(d, principal(), { external_id: 'acme' });
      expect(sesAtStore).toEqual(['configuration-set', 'configuration-set-tls-required']);
      expect(ses.calls).toEqual([
        `ensure ${tenant.id}`,
        `associate ${tenant.id} configuration-set`,
        `associate ${tenant.id} configuration-set-tls-required`,
      ]);
      expect(rows.get('acme')!.tenant.id).toBe(tenant.id);
    });

    it('SES down: 503 service_unavailable and nothing stored; the retry succeeds', async () => {
      const { d, rows, ses } = deps();
      ses.down = true;
      await expect(createTenant(d, principal(), { external_id: 'acme' })).rejects.toMatchObject({
        status: 503,
        code: 'service_unavailable',
      });
      expect(rows.size).toBe(0);
      ses.down = false;
      const tenant = await createTenant(d, principal(), { external_id: 'acme' });
      expect(rows.get('acme')!.tenant.id).toBe(tenant.id);
      expect(ses.resourcesOf(tenant.id)).toEqual(['configuration-set', 'configuration-set-tls-required']);
    });

    it('a create the store refuses (duplicate external_id) deletes its fresh SES tenant again', async () => {
      const { d, ses } = deps();
      const first = await createTenant(d, principal(), { external_id: 'acme' });
      await expect(createTenant(d, principal(), { external_id: 'acme' })).rejects.toMatchObject({ status: 409 });
      expect([...ses.tenants.keys()]).toEqual([first.id]);
    });

    it('is not touched when the caller may not create tenants', async () => {
      const { d, ses } = deps();
      await expect(createTenant(d, principal({}, { tenants_enabled: false }), { external_id: 'a' })).rejects.toMatchObject({ status: 403 });
      expect(ses.calls).toEqual([]);
    });
  });
});
