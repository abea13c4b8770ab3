/**
 * Each tenant is an SES v2 tenant (docs/ses-tenants.md), against the local cloud and its SES emulator:
 * creating a tenant creates the SES tenant with our configuration set associated; a tenant's verified
 * domain (verified while owned, or given when verified) is associated, and dissociated when returned; a
 * tenant's email from its own domain reaches SES with TenantName = the tenant id (an account domain's
 * does not); deleting the tenant deletes the SES tenant.
 */
import { GetTenantCommand } from '@aws-sdk/client-sesv2';
import { api, newAccount, sesMessagesFor, stack, waitFor, type TestAccount } from './harness/stack';
import { publishAll, uniqueDomain } from './harness/dns';
import { createTenant } from './harness/tenants';
import { OUR_CONFIGURATION_SET_ARNS, identityArn, sesTenantsView } from '../support/ses-tenants-view';

const view = sesTenantsView(() => stack().info.env);
const sesResources = view.resources;
let account: TestAccount;

beforeAll(async () => {
  account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
});

/** Adds a domain (owned by `tenant` when given) and verifies it against the DNS emulator. */
async function verifiedDomain(tenant?: string): Promise<{ id: string; name: string }> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name, ...(tenant ? { tenant } : {}) } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.status).toBe(200);
  expect(verified.body.domain.status).toBe('verified');
  return { id: added.body.domain.id, name };
}

describe('tenants as SES tenants', () => {
  it('creating a tenant creates its SES tenant, named by the tenant id, with both configuration sets associated', async () => {
    const tenant = await createTenant(account);
    const got = await view.client().send(new GetTenantCommand({ TenantName: tenant.id }));
    expect(got.Tenant).toMatchObject({ TenantName: tenant.id, SendingStatus: 'ENABLED' });
    expect(await sesResources(tenant.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);
  });

  it("a tenant's domain is associated when verified, and its email reaches SES with TenantName = the tenant id", async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain(tenant.external_id);
    expect(await sesResources(tenant.id)).toEqual([...OUR_CONFIGURATION_SET_ARNS, identityArn(domain.name)].sort());

    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${domain.name}`, to: 'someone@example.com', subject: 'tenant', text: 't', tenant: tenant.external_id },
    });
    expect(sent.status).toBe(200);
    const [message] = await waitFor(async () => {
      const found = await sesMessagesFor(sent.body.id);
      return found.length > 0 ? found : undefined;
    }, 'the tenant email at the SES emulator');
    expect(message).toMatchObject({ tenant_name: tenant.id, configuration_set: 'mailservice-outbound' });
  });

  it("a tenant's email from an account-wide domain goes without TenantName", async () => {
    const tenant = await createTenant(account);
    const shared = await verifiedDomain();
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `hello@${shared.name}`, to: 'someone@example.com', subject: 'shared', text: 't', tenant: tenant.external_id },
    });
    expect(sent.status).toBe(200);
    const [message] = await waitFor(async () => {
      const found = await sesMessagesFor(sent.body.id);
      return found.length > 0 ? found : undefined;
    }, 'the email at the SES emulator');
    expect(message!.tenant_name).toBeNull();
  });

  it('a verified domain given to a tenant is associated; returned to the account, it is dissociated', async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain();
    const given = await api('POST', `/tenants/${tenant.external_id}/domains`, { key: account.key, body: { domain: domain.name } });
    expect(given.status).toBe(200);
    expect(await sesResources(tenant.id)).toEqual([...OUR_CONFIGURATION_SET_ARNS, identityArn(domain.name)].sort());
    const returned = await api('DELETE', `/tenants/${tenant.external_id}/domains/${domain.id}`, { key: account.key });
    expect(returned.status).toBe(200);
    expect(await sesResources(tenant.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);
  });

  it("deleting a tenant's domain dissociates it", async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain(tenant.external_id);
    const deleted = await api('DELETE', `/domains/${domain.id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(await sesResources(tenant.id)).toEqual(OUR_CONFIGURATION_SET_ARNS);
  });

  it('deleting the tenant deletes its SES tenant (the domain stays an SES identity of the account)', async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain(tenant.external_id);
    const deleted = await api('DELETE', `/tenants/${tenant.external_id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(await sesResources(tenant.id)).toBeNull();
    const identities = await api<{ identities: { identity: string }[] }>('GET', '/_local/ses/identities');
    expect(identities.body.identities.map((i) => i.identity)).toContain(domain.name);
  });
});
