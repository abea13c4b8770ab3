/**
 * The SES tenants sweep (shared/usecases/ses-tenants/reconcile-ses-tenants.ts) over in-memory fakes: the paths the
 * emulator cannot stage on demand: a deletion that begins during a repair, SES refusing a stale list
 * token, and a sweep that is not due; and the TLS-required configuration set's backfill, called once.
 */
import { newId } from '#shared/domain/ids';
import type { StoredTenant } from '#shared/adapters/store/tenants';
import {
  NO_SES_TENANT_WORK,
  reconcileSesTenants,
  sweepSesTenantPages,
  type SesTenantSweepDeps,
} from '#shared/usecases/ses-tenants/reconcile-ses-tenants';
import { openSesTenant } from '#shared/usecases/ses-tenants/ses-tenant-links';
import { FakeSesTenants } from '../../support/fake-ses-tenants';

const ID = newId('ten', Date.now() - 3_600_000);

function fakes(options: { deletingAfter?: number; sesTlsTwin?: boolean } = {}) {
  const ses = new FakeSesTenants();
  let reads = 0;
  /** The tenant item's ses_tls_twin, and the writes of it. */
  const tenant = { sesTlsTwin: options.sesTlsTwin ?? false, recorded: [] as string[] };
  let due = true;
  const saved: unknown[] = [];
  const deps: SesTenantSweepDeps = {
    sesTenants: ses,
    tenants: {
      aliases: async (ids) => new Map(ids.filter((id) => id === ID).map((id) => [id, { id, account_id: 'acc_1', external_id: 'acme' }])),
      aliasPage: async () => ({ aliases: [{ id: ID, account_id: 'acc_1', external_id: 'acme' }], next: null }),
      // The tenant's record: live, until the read numbered `deletingAfter` (a DELETE began meanwhile).
      find: async () =>
        ({
          tenant: { id: ID },
          deleting: options.deletingAfter !== undefined && ++reads > options.deletingAfter,
          sesTlsTwin: tenant.sesTlsTwin,
        }) as unknown as StoredTenant,
      recordSesTlsTwin: async (alias) => {
        tenant.recorded.push(alias.id);
        tenant.sesTlsTwin = true;
        return true;
      },
    },
    domains: { tenantDomainIds: async () => [], get: async () => null },
    sesTenantSweep: {
      claim: async () => (due ? { sesToken: null, aliasesAfter: null } : null),
      save: async (state) => {
        saved.push(state);
      },
    },
    clock: { now: () => new Date() },
  };
  return { deps, ses, saved, tenant, notDue: () => (due = false) };
}

const noLog = () => undefined;

describe('SES tenants sweep', () => {
  it('restores a live tenant whose SES tenant is missing', async () => {
    const f = fakes();
    const { report } = await sweepSesTenantPages(f.deps, { sesToken: null, aliasesAfter: null }, noLog);
    expect(report).toEqual({ ...NO_SES_TENANT_WORK, ses_tenants_restored: 1 });
    expect(f.ses.resourcesOf(ID)).toEqual(['configuration-set', 'configuration-set-tls-required']);
  });

  it("deletes again what it restored when the tenant's deletion began meanwhile (its DeleteTenant may have run first)", async () => {
    const f = fakes({ deletingAfter: 1 });
    const { report } = await sweepSesTenantPages(f.deps, { sesToken: null, aliasesAfter: null }, noLog);
    expect(report).toEqual(NO_SES_TENANT_WORK);
    expect(f.ses.resourcesOf(ID)).toBeUndefined();
    expect(f.ses.calls.filter((call) => call.includes(ID))).toEqual([
      `get ${ID}`,
      `ensure ${ID}`,
      `associate ${ID} configuration-set`,
      `associate ${ID} configuration-set-tls-required`,
      `delete ${ID}`,
    ]);
  });

  describe('the TLS-required configuration set of an existing SES tenant', () => {
    const sweep = (f: ReturnType<typeof fakes>) => sweepSesTenantPages(f.deps, { sesToken: null, aliasesAfter: null }, noLog);
    const associations = (f: ReturnType<typeof fakes>) => f.ses.calls.filter((call) => call.startsWith(`associate ${ID}`));

    it('is associated once for a tenant opened before it was, and recorded: the next sweep does not call SES for it', async () => {
      const f = fakes();
      await f.ses.ensureTenant(ID);
      await f.ses.associate(ID, { kind: 'configuration_set' });
      f.ses.calls.length = 0;
      await sweep(f);
      expect(associations(f)).toEqual([`associate ${ID} configuration-set-tls-required`]);
      expect(f.tenant.recorded).toEqual([ID]);
      await sweep(f);
      expect(associations(f)).toHaveLength(1);
      expect(f.tenant.recorded).toEqual([ID]);
      expect(f.ses.resourcesOf(ID)).toEqual(['configuration-set', 'configuration-set-tls-required']);
    });

    it('is not associated again for a tenant created with both (recorded at its creation)', async () => {
      const f = fakes({ sesTlsTwin: true });
      await openSesTenant(f.ses, ID);
      f.ses.calls.length = 0;
      await sweep(f);
      await sweep(f);
      expect(associations(f)).toEqual([]);
      expect(f.tenant.recorded).toEqual([]);
    });

    it('is not recorded when SES refused the association (the next sweep tries again)', async () => {
      const f = fakes();
      await f.ses.ensureTenant(ID);
      const refusing = Object.assign(Object.create(f.ses) as FakeSesTenants, {
        associate: async () => {
          throw Object.assign(new Error('SES is unavailable'), { name: 'TooManyRequestsException' });
        },
      });
      f.deps.sesTenants = refusing;
      expect((await sweep(f)).report.ses_tenant_errors).toBe(1);
      expect(f.tenant.recorded).toEqual([]);
      f.deps.sesTenants = f.ses;
      await sweep(f);
      expect(f.tenant.recorded).toEqual([ID]);
    });

    it('is recorded for a tenant without the record whose missing SES tenant the sweep opened again (with both sets)', async () => {
      const f = fakes();
      expect((await sweep(f)).report.ses_tenants_restored).toBe(1);
      expect(f.tenant.recorded).toEqual([ID]);
      f.ses.calls.length = 0;
      await sweep(f);
      expect(associations(f)).toEqual([]);
    });
  });

  it("starts SES's list over when SES no longer takes its token, and counts the error", async () => {
    const f = fakes();
    f.deps.sesTenants = Object.assign(Object.create(f.ses) as FakeSesTenants, {
      listTenants: async () => {
        throw Object.assign(new Error('NextToken is invalid.'), { name: 'BadRequestException' });
      },
    });
    const logged: string[] = [];
    const { report, next } = await sweepSesTenantPages(f.deps, { sesToken: 'stale', aliasesAfter: null }, (message) =>
      logged.push(message),
    );
    expect(next.sesToken).toBeNull();
    expect(report.ses_tenant_errors).toBe(1);
    expect(logged).toEqual(['reconcile: ListTenants failed']);
  });

  it('does nothing when the sweep is not due, and records where it stopped when it is', async () => {
    const f = fakes();
    await reconcileSesTenants(f.deps, noLog);
    expect(f.saved).toEqual([{ sesToken: null, aliasesAfter: null }]);
    f.notDue();
    const calls = f.ses.calls.length;
    expect(await reconcileSesTenants(f.deps, noLog)).toEqual(NO_SES_TENANT_WORK);
    expect(f.ses.calls.length).toBe(calls);
    expect(f.saved).toHaveLength(1);
  });
});
