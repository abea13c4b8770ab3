/**
 * API keys limited to a tenant against the local cloud: created with `tenant` (external_id or id), shown
 * with the tenant's external_id, stored with the tenant id (what authentication and every tenant rule
 * compare), and unable to create, list or revoke keys (an account-wide resource).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret } from '#shared/domain/api-keys/secret';
import { keys } from '#shared/adapters/store/keys';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { documentClient } from './harness/usage';
import { unique } from './harness/tenants';

describe('API keys limited to a tenant', () => {
  let account: TestAccount;
  let acme: { id: string; external_id: string };
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('acme') } })).body.tenant;
  });

  it('creates a key for a tenant named by external_id or id; it shows the external_id and stores the id', async () => {
    for (const tenant of [acme.external_id, acme.id]) {
      const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'acme key', scopes: ['full'], tenant } });
      expect(created.status).toBe(201);
      expect(created.body.api_key).toMatchObject({ object: 'api_key', name: 'acme key', tenant: acme.external_id, scopes: ['full'] });
      const lookup = await documentClient().send(
        new GetCommand({ TableName: stack().info.env.TABLE_NAME!, Key: keys.apiKeyHash(hashSecret(created.body.secret)) }),
      );
      expect(lookup.Item).toMatchObject({ tenant: acme.id });
      // It works as that tenant's key.
      expect((await api('GET', `/tenants/${acme.external_id}`, { key: created.body.secret })).status).toBe(200);
    }
    const list = await api('GET', '/api-keys?limit=100', { key: account.key });
    const tenantKeys = list.body.api_keys.filter((k: { tenant: string | null }) => k.tenant !== null);
    expect(tenantKeys).toHaveLength(2);
    expect(tenantKeys.every((k: { tenant: string }) => k.tenant === acme.external_id)).toBe(true);
    expect(list.body.api_keys.some((k: { tenant: string | null }) => k.tenant === null)).toBe(true);
  });

  it('a key limited to a tenant cannot create, list or revoke API keys (403 forbidden)', async () => {
    const limited = (
      await api('POST', '/api-keys', { key: account.key, body: { name: 'acme', scopes: ['full'], tenant: acme.external_id } })
    ).body;
    const calls: [string, string, unknown?][] = [
      ['POST', '/api-keys', { name: 'k', scopes: ['full'] }],
      ['POST', '/api-keys', { name: 'k', scopes: ['full'], tenant: acme.external_id }],
      ['GET', '/api-keys'],
      ['DELETE', `/api-keys/${limited.api_key.id}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: limited.secret, body });
      expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'forbidden',
      });
    }
    expect((await api('GET', `/tenants/${acme.id}`, { key: limited.secret })).status).toBe(200);
  });

  it("404 for an unknown tenant or another account's tenant; 400 for a malformed one", async () => {
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    for (const tenant of ['nobody', acme.id, acme.external_id]) {
      const response = await api('POST', '/api-keys', { key: other.key, body: { name: 'k', scopes: ['full'], tenant } });
      expect({ tenant, status: response.status, code: response.body.error?.code }).toEqual({ tenant, status: 404, code: 'not_found' });
    }
    for (const tenant of ['', 'x'.repeat(129), 7]) {
      expect((await api('POST', '/api-keys', { key: account.key, body: { name: 'k', scopes: ['full'], tenant } })).status).toBe(400);
    }
  });
});
