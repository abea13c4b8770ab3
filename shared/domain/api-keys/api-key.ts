import * as z from 'zod';
import { SCOPES } from './scopes';

/**
 * An API key as shown to users (never with its secret). The schema of its stored listing item (the store
 * decodes with it: shared/adapters/store/api-keys.ts) is the single source of the type.
 */
export const apiKeySchema = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  /** The tenant id (ten_...) the key is limited to; null for a key of the whole account. */
  tenant: z.string().nullable(),
  /** That tenant's external_id (immutable, so kept with the id): what the API shows as `tenant`. */
  tenant_external_id: z.string().nullable().optional(),
  allowed_domains: z.array(z.string()).nullable(),
  hint: z.string(),
  created_at: z.string(),
});
export type ApiKey = z.output<typeof apiKeySchema>;

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
