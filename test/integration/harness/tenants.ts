/** Tenant fixtures for the integration tests: unique names and a tenant created through the API. */
import { api, type TestAccount } from './stack';

export interface TenantView {
  id: string;
  external_id: string;
  account_id?: string;
}

/** A name no other test run uses: `<name>-<time>-<random>`. */
export const unique = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** POST /tenants with a unique external_id starting with `prefix` (and any other fields); expects 201. */
export async function createTenant(account: TestAccount, body: Record<string, unknown> = {}, prefix = 't'): Promise<TenantView> {
  const response = await api('POST', '/tenants', { key: account.key, body: { external_id: unique(prefix), ...body } });
  expect(response.status).toBe(201);
  return response.body.tenant;
}
