import type { Scope } from './scopes';

/** An API key as shown to users (never with its secret). */
export interface ApiKey {
  id: string;
  account_id: string;
  name: string;
  scopes: Scope[];
  /** The tenant id (ten_...) the key is limited to; null for a key of the whole account. */
  tenant: string | null;
  /** That tenant's external_id (immutable, so kept with the id): what the API shows as `tenant`. */
  tenant_external_id?: string | null;
  allowed_domains: string[] | null;
  hint: string;
  created_at: string;
}

/** The API's view (never the secret): `tenant` is the tenant's external_id. */
export function toPublicApiKey(key: ApiKey) {
  return {
    object: 'api_key' as const,
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    tenant: key.tenant === null ? null : (key.tenant_external_id ?? key.tenant),
    allowed_domains: key.allowed_domains,
    hint: key.hint,
    created_at: key.created_at,
  };
}
