/**
 * Each tenant is an SES v2 tenant (docs/ses-tenants.md), against the local cloud and its SES emulator:
 * creating a tenant creates the SES tenant with our configuration set associated; a tenant's verified
 * domain (verified while owned, or given when verified) is associated, and dissociated when returned; a
 * tenant's email from its own domain reaches SES with TenantName = the tenant id (an account domain's
 * does not); deleting the tenant deletes the SES tenant.
 */
import { GetTenantCommand, ListTenantResourcesCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { api, newAccount, sesMessagesFor, stack, waitFor, type TestAccount } from './harness/stack';
import { publishAll, uniqueDomain } from './harness/dns';
import { createTenant } from './harness/tenants';

const CONFIGURATION_SET_ARN = 'arn:aws:ses:us-east-1:000000000000:configuration-set/mailservice-outbound';
const identityArn = (domain: string) => `arn:aws:ses:us-east-1:000000000000:identity/${domain}`;

let ses: SESv2Client;
let account: TestAccount;

beforeAll(async () => {
  const env = stack().info.env;
  ses = new SESv2Client({ endpoint: env.AWS_ENDPOINT_URL_SESV2, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
  account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
});

afterAll(() => ses?.destroy());

/** The ARNs associated with the SES tenant, sorted; null when it does not exist. */
async function sesResources(tenantId: string): Promise<string[] | null> {
  try {
    const listed = await ses.send(new ListTenantResourcesCommand({ TenantName: tenantId }));
    return (listed.TenantResources ?? []).map((r) => r.ResourceArn!).sort();
  } catch (error) {
    if ((error as Error).name === 'NotFoundException') return null;
    throw error;
  }
}

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
  it('creating a tenant creates its SES tenant, named by the tenant id, with the configuration set associated', async () => {
    const tenant = await createTenant(account);
    const got = await ses.send(new GetTenantCommand({ TenantName: tenant.id }));
    expect(got.Tenant).toMatchObject({ TenantName: tenant.id, SendingStatus: 'ENABLED' });
    expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN]);
  });

  it("a tenant's domain is associated when verified, and its email reaches SES with TenantName = the tenant id", async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain(tenant.external_id);
    expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN, identityArn(domain.name)].sort());

    const sent = await api('POST', '/emails', { key: account.key, body: { from: `hello@${domain.name}`, to: 'someone@example.com', subject: 'tenant', text: 't', tenant: tenant.external_id } });
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
    const sent = await api('POST', '/emails', { key: account.key, body: { from: `hello@${shared.name}`, to: 'someone@example.com', subject: 'shared', text: 't', tenant: tenant.external_id } });
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
    expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN, identityArn(domain.name)].sort());
    const returned = await api('DELETE', `/tenants/${tenant.external_id}/domains/${domain.id}`, { key: account.key });
    expect(returned.status).toBe(200);
    expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN]);
  });

  it("deleting a tenant's domain dissociates it", async () => {
    const tenant = await createTenant(account);
    const domain = await verifiedDomain(tenant.external_id);
    const deleted = await api('DELETE', `/domains/${domain.id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(await sesResources(tenant.id)).toEqual([CONFIGURATION_SET_ARN]);
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
