/**
 * DELETE /tenants/{tenant} against the local cloud: its keys are revoked (401 at once), its domains
 * return to the account (claims too), its suppression list and category opt-outs are deleted, it leaves
 * webhook tenant filters (endpoints that listened only to it are disabled, not deleted); other tenants
 * and the account keep everything. An interrupted deletion is finished by sending DELETE again, and
 * once it has begun nothing new can be attached to the tenant.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { generateApiKeySecret, hashSecret } from '#shared/domain/api-keys/secret';
import { newId } from '#shared/domain/ids';
import { keys } from '#shared/adapters/store/keys';

import { listCategoryOptOuts, recordCategoryOptOut } from '#shared/usecases/suppressions/suppressions';
import { tenantCleanupSteps } from '#shared/usecases/tenants/tenant-cleanup';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { uniqueDomain } from './harness/dns';
import { documentClient } from './harness/usage';
import { unique, createTenant, type TenantView } from './harness/tenants';

const tenantDomainKey = keys.tenantDomain;

const tableName = () => stack().info.env.TABLE_NAME!;

let hookHost: string;
beforeAll(async () => {
  hookHost = `h${randomUUID().slice(0, 8)}.tenant-delete.test`;
  const published = await api('PUT', '/_local/dns/records', { body: { name: hookHost, type: 'A', values: ['93.184.216.34'] } });
  expect(published.status).toBe(200);
});

async function webhook(account: TestAccount, tenants?: string[]) {
  const response = await api('POST', '/webhooks', {
    key: account.key,
    body: { url: `https://${hookHost}/${randomUUID().slice(0, 6)}`, ...(tenants ? { tenants } : {}) },
  });
  expect(response.status).toBe(200);
  return response.body.webhook as { id: string };
}

async function claimOf(name: string) {
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.domainName(name), ConsistentRead: true }))).Item;
}

/** A tenant with something of each kind: a key, two domains (one created for it, one given), a suppression, an opt-out. */
async function furnish(account: TestAccount, tenant: TenantView) {
  const key = (await api('POST', '/api-keys', { key: account.key, body: { name: 'k', scopes: ['full'], tenant: tenant.external_id } })).body
    .secret as string;
  const created = (await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), tenant: tenant.external_id } })).body
    .domain;
  const given = (await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } })).body.domain;
  expect((await api('POST', `/tenants/${tenant.external_id}/domains`, { key: account.key, body: { domain: given.name } })).status).toBe(
    200,
  );
  const email = `${unique('s')}@example.com`;
  expect((await api('POST', '/suppressions', { key: account.key, body: { email, tenant: tenant.external_id } })).status).toBe(201);
  await recordCategoryOptOut(stack().services, { accountId: account.id, tenantId: tenant.id, email, category: 'product' });
  return { key, domains: [created, given] as { id: string; name: string }[], email };
}

describe('DELETE /tenants/{tenant}: the cascade', () => {
  it('revokes keys, returns domains, deletes lists and opt-outs, leaves webhook filters; the other tenant keeps everything', async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const gone = await createTenant(account, {}, 'gone');
    const kept = await createTenant(account, {}, 'kept');
    const goneStuff = await furnish(account, gone);
    const keptStuff = await furnish(account, kept);
    const accountEmail = `${unique('wide')}@example.com`;
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: accountEmail } })).status).toBe(201);
    const onlyGone = await webhook(account, [gone.external_id]);
    const both = await webhook(account, [gone.external_id, kept.external_id]);
    const onlyKept = await webhook(account, [kept.external_id]);
    const everything = await webhook(account);
    expect((await api('GET', '/domains', { key: goneStuff.key })).status).toBe(200);

    const deleted = await api('DELETE', `/tenants/${gone.external_id}`, { key: account.key });
    expect(deleted.status).toBe(200);

    // Keys: revoked at once.
    expect((await api('GET', '/domains', { key: goneStuff.key })).status).toBe(401);
    expect(
      (await api('GET', '/api-keys?limit=100', { key: account.key })).body.api_keys.map((k: { tenant: string | null }) => k.tenant),
    ).not.toContain(gone.external_id);
    expect((await api('GET', '/domains', { key: keptStuff.key })).status).toBe(200);

    // Domains: back to the account, claims too.
    for (const domain of goneStuff.domains) {
      expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.tenant).toBeNull();
      expect((await claimOf(domain.name))!.tenant_id).toBeUndefined();
      const membership = await documentClient().send(
        new GetCommand({ TableName: tableName(), Key: tenantDomainKey(gone.id, domain.id), ConsistentRead: true }),
      );
      expect(membership.Item).toBeUndefined();
    }
    for (const domain of keptStuff.domains) {
      expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.tenant).toBe(kept.external_id);
      expect((await claimOf(domain.name))!.tenant_id).toBe(kept.id);
    }

    // Lists: the tenant's are gone (read in the table itself), the others stay.
    const { services } = stack();
    expect(await services.suppressions.get(account.id, gone.id, goneStuff.email)).toBeNull();
    expect(await listCategoryOptOuts(services, { accountId: account.id, tenantId: gone.id, email: goneStuff.email })).toEqual([]);
    expect(await services.suppressions.get(account.id, kept.id, keptStuff.email)).not.toBeNull();
    expect(await listCategoryOptOuts(services, { accountId: account.id, tenantId: kept.id, email: keptStuff.email })).toHaveLength(1);
    expect(await services.suppressions.get(account.id, null, accountEmail)).not.toBeNull();

    // Webhooks: filters without it; an endpoint that listened only to it is disabled, not deleted.
    const view = async (id: string) => (await api('GET', `/webhooks/${id}`, { key: account.key })).body.webhook;
    const disabled = await view(onlyGone.id);
    expect(disabled.enabled).toBe(false);
    expect(disabled.tenants).toBeUndefined();
    expect(await view(both.id)).toMatchObject({ enabled: true, tenants: [kept.external_id] });
    expect(await view(onlyKept.id)).toMatchObject({ enabled: true, tenants: [kept.external_id] });
    const untouched = await view(everything.id);
    expect(untouched.enabled).toBe(true);
    expect(untouched.tenants).toBeUndefined();

    // The tenant is gone everywhere it could be named.
    expect((await api('GET', `/suppressions?tenant=${gone.id}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', `/tenants/${gone.external_id}/domains`, { key: account.key })).status).toBe(404);
    expect((await api('DELETE', `/tenants/${gone.external_id}`, { key: account.key })).status).toBe(404);
  });

  it('an interrupted deletion is finished by sending DELETE again; meanwhile nothing new can be attached to the tenant', async () => {
    const account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await createTenant(account, {}, 'half');
    const stuff = await furnish(account, tenant);
    const hook = await webhook(account, [tenant.external_id]);
    const spare = (await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } })).body.domain;
    const { services } = stack();
    const stored = (await services.tenants.find(account.id, tenant.external_id))!.tenant;

    // As if a DELETE died after marking the tenant, cancelling its scheduled emails and revoking its keys.
    expect(await services.tenants.markDeleting(stored, new Date().toISOString())).toBe(true);
    const steps = tenantCleanupSteps(services);
    await steps[0]!(stored, new Date());
    await steps[1]!(stored, new Date());
    expect((await api('GET', '/domains', { key: stuff.key })).status).toBe(401);
    expect((await claimOf(stuff.domains[0]!.name))!.tenant_id).toBe(tenant.id);

    // A tenant being deleted takes nothing new: through the API (404) and at the store's conditions.
    expect(
      (await api('POST', '/api-keys', { key: account.key, body: { name: 'late', scopes: ['full'], tenant: tenant.external_id } })).status,
    ).toBe(404);
    expect((await api('POST', `/tenants/${tenant.external_id}/domains`, { key: account.key, body: { domain: spare.name } })).status).toBe(
      404,
    );
    expect((await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), tenant: tenant.external_id } })).status).toBe(
      404,
    );
    const lateKey = {
      id: newId('key'),
      account_id: account.id,
      name: 'late',
      scopes: ['full' as const],
      tenant: stored.id,
      allowed_domains: null,
      hint: 'svc_x…',
      created_at: new Date().toISOString(),
    };
    expect(await services.apiKeys.create(lateKey, hashSecret(generateApiKeySecret()), stored)).toBe('tenant_gone');
    expect(await services.domains.assignToTenant(account.id, spare, stored, new Date().toISOString())).toEqual({ kind: 'tenant_gone' });
    expect((await claimOf(spare.name))!.tenant_id).toBeUndefined();

    const finished = await api('DELETE', `/tenants/${tenant.external_id}`, { key: account.key });
    expect(finished.status).toBe(200);
    for (const domain of stuff.domains) expect((await claimOf(domain.name))!.tenant_id).toBeUndefined();
    expect(await services.suppressions.get(account.id, tenant.id, stuff.email)).toBeNull();
    expect((await api('GET', `/webhooks/${hook.id}`, { key: account.key })).body.webhook).toMatchObject({ enabled: false });
    expect(await services.tenants.find(account.id, tenant.external_id)).toBeNull();
    // Running the steps again changes nothing (each is idempotent).
    for (const step of steps) await step(stored, new Date());
  });

  it('keeps accounts apart: deleting a tenant touches nothing of another account', async () => {
    const one = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const two = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const shared = unique('same');
    const t1 = (await api('POST', '/tenants', { key: one.key, body: { external_id: shared } })).body.tenant;
    const t2 = (await api('POST', '/tenants', { key: two.key, body: { external_id: shared } })).body.tenant;
    const s2 = await furnish(two, t2);
    const hook = await webhook(two, [shared]);
    expect((await api('DELETE', `/tenants/${t1.id}`, { key: two.key })).status).toBe(404);
    expect((await api('DELETE', `/tenants/${shared}`, { key: one.key })).status).toBe(200);
    expect((await api('GET', '/domains', { key: s2.key })).status).toBe(200);
    for (const domain of s2.domains) expect((await claimOf(domain.name))!.tenant_id).toBe(t2.id);
    expect(await stack().services.suppressions.get(two.id, t2.id, s2.email)).not.toBeNull();
    expect((await api('GET', `/webhooks/${hook.id}`, { key: two.key })).body.webhook).toMatchObject({ enabled: true, tenants: [shared] });
  });
});
