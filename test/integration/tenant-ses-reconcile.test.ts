/**
 * The reconciler's SES tenants sweep (shared/usecases/ses-tenants/reconcile-ses-tenants.ts) against the local cloud's
 * SES emulator and table: an SES tenant left without a tenant of ours (a crash between CreateTenant and
 * the store write; one re-created while its tenant was deleted) is deleted once its id is older than the
 * grace, never a younger one (a create may still be running) nor one that does not use our configuration
 * set; a tenant of ours whose SES tenant is missing gets it back with its associations, unless it is being
 * deleted. The emulator lists tenants as SES's ListTenants does (fields, NextToken paging, Filter).
 */
import {
  CreateTenantCommand,
  CreateTenantResourceAssociationCommand,
  DeleteTenantCommand,
  DeleteTenantResourceAssociationCommand,
  GetTenantCommand,
  ListTenantsCommand,
} from '@aws-sdk/client-sesv2';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '#shared/domain/ids';
import { keys } from '#shared/adapters/store/keys';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { SesTenantSweepState } from '#shared/adapters/store/ses-tenant-sweep';
import { reconcile } from '#shared/usecases/reliability/reconcile';
import {
  SES_TENANT_ORPHAN_GRACE_MS,
  sweepSesTenantPages,
  type SesTenantSweepReport,
} from '#shared/usecases/ses-tenants/reconcile-ses-tenants';
import { openSesTenant } from '#shared/usecases/ses-tenants/ses-tenant-links';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { runTask } from './harness/tasks';
import { documentClient } from './harness/usage';
import { publishAll, uniqueDomain } from './harness/dns';
import { createTenant, unique } from './harness/tenants';
import {
  CONFIGURATION_SET_ARN,
  OUR_CONFIGURATION_SET_ARNS,
  TLS_CONFIGURATION_SET_ARN,
  identityArn,
  sesTenantsView,
} from '../support/ses-tenants-view';

const view = sesTenantsView(() => stack().info.env);
const sesResources = view.resources;
let account: TestAccount;

beforeAll(async () => {
  account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
});

/**
 * The SES tenants this file made (stranded ones and its account's tenants). A whole sweep walks every page
 * of both lists, as successive reconciler passes would, but settles only these: the shared stack holds
 * every test file's tenants (thousands in a whole run), and checking each of them costs an SES call and a
 * read, more than three minutes for two sweeps on a loaded machine (CI, 2026-11-25). Other files' tenants
 * are theirs to settle; the paging over the whole lists is still real.
 */
const mine = new Set<string>();

async function ourTenant(): Promise<Awaited<ReturnType<typeof createTenant>>> {
  const tenant = await createTenant(account);
  mine.add(tenant.id);
  return tenant;
}

/** An SES tenant as a crash would leave it: created (and associated with our configuration set, unless `owned` is false), with no tenant of ours. */
async function strandedSesTenant(ageMs: number, owned = true): Promise<string> {
  const name = newId('ten', Date.now() - ageMs);
  mine.add(name);
  await view.client().send(new CreateTenantCommand({ TenantName: name }));
  if (owned) await view.client().send(new CreateTenantResourceAssociationCommand({ TenantName: name, ResourceArn: CONFIGURATION_SET_ARN }));
  return name;
}

const SWEEP_TEST_MS = 60_000;

/** One whole cycle of the sweep (both lists, every page) over this file's tenants. */
async function sweepEverything(services: Parameters<typeof sweepSesTenantPages>[0] = stack().services): Promise<SesTenantSweepReport> {
  const scoped: Parameters<typeof sweepSesTenantPages>[0] = {
    ...services,
    sesTenants: Object.assign(Object.create(services.sesTenants) as typeof services.sesTenants, {
      listTenants: async (page: Parameters<typeof services.sesTenants.listTenants>[0]) => {
        const read = await services.sesTenants.listTenants(page);
        return { ...read, tenants: read.tenants.filter((tenant) => mine.has(tenant.name)) };
      },
    }),
    tenants: Object.assign(Object.create(services.tenants) as typeof services.tenants, {
      aliasPage: async (after: Record<string, unknown> | null, limit: number) => {
        const read = await services.tenants.aliasPage(after, limit);
        return { ...read, aliases: read.aliases.filter((alias) => mine.has(alias.id)) };
      },
    }),
  };
  const errors: unknown[] = [];
  const total: SesTenantSweepReport = { ses_tenants_removed: 0, ses_tenants_restored: 0, ses_tenants_unowned: 0, ses_tenant_errors: 0 };
  let state: SesTenantSweepState = { sesToken: null, aliasesAfter: null };
  do {
    const { report, next } = await sweepSesTenantPages(scoped, state, (_message, error) => errors.push(error), {
      sesPage: 50,
      ourPage: 100,
    });
    for (const key of Object.keys(total) as (keyof SesTenantSweepReport)[]) total[key] += report[key];
    state = next;
  } while (state.sesToken !== null || state.aliasesAfter !== null);
  expect(errors).toEqual([]);
  return total;
}

/** A verified domain owned by the tenant (associated with its SES tenant by the verification). */
async function verifiedDomainOf(tenant: { external_id: string }): Promise<string> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name, tenant: tenant.external_id } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.body.domain.status).toBe('verified');
  return name;
}

describe('the SES emulator lists tenants as ListTenants does', () => {
  it('answers TenantInfo fields and pages with NextToken until the last page, which has none; Filter narrows by name', async () => {
    const prefix = unique('list').replace(/[^A-Za-z0-9-]/g, '-');
    const names = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
    for (const name of names) await view.client().send(new CreateTenantCommand({ TenantName: name }));
    const seen: string[] = [];
    let NextToken: string | undefined;
    let pages = 0;
    do {
      const page = await view
        .client()
        .send(new ListTenantsCommand({ PageSize: 2, Filter: { TENANT_NAME_CONTAINS: prefix }, ...(NextToken ? { NextToken } : {}) }));
      pages++;
      expect(page.Tenants!.length).toBeLessThanOrEqual(2);
      for (const info of page.Tenants!) {
        expect(info).toEqual({
          TenantName: expect.any(String),
          TenantId: expect.any(String),
          TenantArn: `arn:aws:ses:us-east-1:000000000000:tenant/${info.TenantName}/${info.TenantId}`,
          CreatedTimestamp: expect.any(Date),
          SendingStatus: 'ENABLED',
        });
        seen.push(info.TenantName!);
      }
      NextToken = page.NextToken;
    } while (NextToken);
    expect(pages).toBe(2);
    expect(seen).toEqual(names);
    await expect(view.client().send(new ListTenantsCommand({ PageSize: 0 }))).rejects.toMatchObject({ name: 'BadRequestException' });
    await expect(view.client().send(new ListTenantsCommand({ NextToken: 'not-a-token' }))).rejects.toMatchObject({
      name: 'BadRequestException',
    });
    // SENDING_STATUS narrows too (every emulated tenant is ENABLED); a key or a status outside the model is refused, never ignored.
    const enabled = await view
      .client()
      .send(new ListTenantsCommand({ Filter: { TENANT_NAME_CONTAINS: prefix, SENDING_STATUS: 'ENABLED' } }));
    expect(enabled.Tenants!.map((info) => info.TenantName)).toEqual(names);
    expect(
      (await view.client().send(new ListTenantsCommand({ Filter: { TENANT_NAME_CONTAINS: prefix, SENDING_STATUS: 'DISABLED' } }))).Tenants,
    ).toEqual([]);
    await expect(view.client().send(new ListTenantsCommand({ Filter: { SENDING_STATUS: 'PAUSED' } }))).rejects.toMatchObject({
      name: 'BadRequestException',
    });
    await expect(
      view.client().send(new ListTenantsCommand({ Filter: { TENANT_NAME_STARTS_WITH: prefix } as never })),
    ).rejects.toMatchObject({ name: 'BadRequestException' });
    for (const name of names) await view.client().send(new DeleteTenantCommand({ TenantName: name }));
  });
});

describe('the SES tenants sweep', () => {
  it(
    'deletes an SES tenant stranded by a crash once its id is older than the grace; a younger one, or one not using our configuration set, stays',
    async () => {
      const stranded = await strandedSesTenant(SES_TENANT_ORPHAN_GRACE_MS + 60_000);
      const young = await strandedSesTenant(SES_TENANT_ORPHAN_GRACE_MS - 60_000);
      const foreign = await strandedSesTenant(SES_TENANT_ORPHAN_GRACE_MS + 60_000, false);
      const kept = await ourTenant();

      const report = await sweepEverything();
      expect(await sesResources(stranded)).toBeNull();
      expect(await sesResources(young)).toEqual([CONFIGURATION_SET_ARN]);
      expect(await sesResources(foreign)).toEqual([]);
      expect(await sesResources(kept.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);
      // The foreign one at least (other files create and delete SES tenants while the sweep pages through
      // ListTenants, an offset token, so a tenant may be listed twice: once deleted, it counts as not ours).
      // The stranded one's deletion is not counted here: the stack's own reconciler runs the same sweep
      // (every 5 minutes) and may have deleted it first.
      expect(report.ses_tenants_unowned).toBeGreaterThanOrEqual(1);
      for (const name of [young, foreign]) await view.client().send(new DeleteTenantCommand({ TenantName: name }));
    },
    SWEEP_TEST_MS,
  );

  it(
    'deletes an SES tenant re-created while its tenant was being deleted (a domain verified during the DELETE)',
    async () => {
      // A tenant created an hour ago (written as POST /tenants writes it, with an id of that time).
      const { services } = stack();
      const created = new Date(Date.now() - 3_600_000).toISOString();
      const tenant: Tenant = {
        id: newId('ten', Date.parse(created)),
        account_id: account.id,
        external_id: unique('old'),
        name: 'old',
        status: 'active',
        paused_reason: null,
        paused_at: null,
        pause_source: null,
        default_from_domain: null,
        stream_policy: 'all',
        daily_limit: null,
        metadata: null,
        created_at: created,
        updated_at: created,
      };
      mine.add(tenant.id);
      await openSesTenant(services.sesTenants, tenant.id);
      expect(await services.tenants.create(tenant, 1000)).toEqual({ kind: 'created' });
      expect((await api('DELETE', `/tenants/${tenant.external_id}`, { key: account.key })).status).toBe(200);
      expect(await sesResources(tenant.id)).toBeNull();
      // The verification that raced the DELETE ensures the SES tenant after the deletion's last step.
      await openSesTenant(services.sesTenants, tenant.id);
      expect(await sesResources(tenant.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);

      await sweepEverything();
      expect(await sesResources(tenant.id)).toBeNull();
    },
    SWEEP_TEST_MS,
  );

  it(
    'gives a live tenant whose SES tenant is missing its SES tenant back, with the configuration set and its verified domains; not a tenant being deleted',
    async () => {
      const tenant = await ourTenant();
      const domain = await verifiedDomainOf(tenant);
      const deleting = await ourTenant();
      const { services } = stack();
      expect(
        await services.tenants.markDeleting({ account_id: account.id, external_id: deleting.external_id }, new Date().toISOString()),
      ).toBe(true);
      for (const name of [tenant.id, deleting.id]) await view.client().send(new DeleteTenantCommand({ TenantName: name }));

      const report = await sweepEverything();
      expect(await sesResources(tenant.id)).toEqual([...OUR_CONFIGURATION_SET_ARNS, identityArn(domain)].sort());
      expect((await view.client().send(new GetTenantCommand({ TenantName: tenant.id }))).Tenant?.TenantName).toBe(tenant.id);
      expect(await sesResources(deleting.id)).toBeNull();
      expect(report.ses_tenants_restored).toBe(1);
      // Its deletion finishes as usual.
      expect((await api('DELETE', `/tenants/${deleting.external_id}`, { key: account.key })).status).toBe(200);
    },
    SWEEP_TEST_MS,
  );

  it(
    'associates the TLS-required configuration set with a live tenant opened before it was (an existing SES tenant), once: recorded, later sweeps leave it',
    async () => {
      const { services, info } = stack();
      const tenant = await ourTenant();
      // POST /tenants opened its SES tenant with both sets and recorded it.
      expect((await services.tenants.find(account.id, tenant.id))?.sesTlsTwin).toBe(true);
      // As a tenant opened by an earlier version: the main configuration set only, nothing recorded.
      await view
        .client()
        .send(new DeleteTenantResourceAssociationCommand({ TenantName: tenant.id, ResourceArn: TLS_CONFIGURATION_SET_ARN }));
      await documentClient().send(
        new UpdateCommand({
          TableName: info.env.TABLE_NAME!,
          Key: keys.tenant(account.id, tenant.external_id),
          UpdateExpression: 'REMOVE ses_tls_twin',
        }),
      );
      expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN]);
      const associated: string[] = [];
      const sesTenants = Object.assign(Object.create(services.sesTenants) as typeof services.sesTenants, {
        associate: (tenantId: string, resource: Parameters<typeof services.sesTenants.associate>[1]) => {
          associated.push(tenantId);
          return services.sesTenants.associate(tenantId, resource);
        },
      });
      await sweepEverything({ ...services, sesTenants });
      expect(await sesResources(tenant.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);
      expect(associated.filter((id) => id === tenant.id)).toHaveLength(1);
      expect((await services.tenants.find(account.id, tenant.id))?.sesTlsTwin).toBe(true);
      await sweepEverything({ ...services, sesTenants });
      expect(associated.filter((id) => id === tenant.id)).toHaveLength(1);
    },
    SWEEP_TEST_MS,
  );

  it('runs from the reconciler at most once per interval: one pass claims the sweep, the next within the interval does nothing', async () => {
    const { services, info } = stack();
    // The stack's own reconciler (its handler, one pass asked for now) has swept: its place is recorded.
    await runTask('reconciler');
    const recorded = await waitFor(
      async () =>
        (await documentClient().send(new GetCommand({ TableName: info.env.TABLE_NAME!, Key: keys.sesTenantSweep(), ConsistentRead: true })))
          .Item,
      "the local reconciler's first sweep",
    );
    expect(recorded.next_run_at).toEqual(expect.any(Number));
    // A clock past any sweep the local reconciler has made: this pass's claim is due, the next one is not.
    const later = { now: () => new Date(Date.now() + 3_600_000) };
    let listed = 0;
    const sesTenants = Object.assign(Object.create(services.sesTenants) as typeof services.sesTenants, {
      listTenants: (page: { nextToken?: string; pageSize: number }) => {
        listed++;
        return services.sesTenants.listTenants(page);
      },
    });
    const logged: unknown[] = [];
    const pass = () =>
      reconcile(
        {
          ...services,
          dueWork: { pastDue: async () => [] },
          bounds: services.config.recovery,
          sesTenantSweep: { ...services, sesTenants, clock: later },
        },
        (_m, error) => logged.push(error),
      );
    const first = await pass();
    expect(listed).toBe(1);
    expect(first.ses_tenant_errors).toBe(0);
    const second = await pass();
    expect(listed).toBe(1);
    expect(second).toMatchObject({ ses_tenants_removed: 0, ses_tenants_restored: 0, ses_tenants_unowned: 0, ses_tenant_errors: 0 });
    expect(logged).toEqual([]);
  });
});
