/**
 * A tenant: one of an account's own customers, isolated under the account (spec, Tenants): its domains,
 * suppression list, ramp, daily limit, pause switch and stats. `{tenant}` in paths and `tenant` in
 * bodies name it by external_id (the caller's own id for its customer) or by our id.
 */
import * as z from 'zod';

export const TENANT_STATUSES = ['active', 'paused'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

export const STREAM_POLICIES = ['all', 'transactional_only'] as const;
export type StreamPolicy = (typeof STREAM_POLICIES)[number];

/** Who paused it: `manual` (PATCH /tenants) or `automated` (the service, on its bounce or complaint rate). */
export const PAUSE_SOURCES = ['manual', 'automated'] as const;
export type PauseSource = (typeof PAUSE_SOURCES)[number];

/**
 * The schema of the stored tenant without the store's bookkeeping (ramp, deletion, SES twin, the
 * endpoints naming it: shared/adapters/store/tenants.ts decodes with it), the single source of the type.
 */
export const tenantSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  external_id: z.string(),
  name: z.string(),
  status: z.enum(TENANT_STATUSES),
  paused_reason: z.string().nullable(),
  paused_at: z.string().nullable(),
  pause_source: z.enum(PAUSE_SOURCES).nullable(),
  default_from_domain: z.string().nullable(),
  stream_policy: z.enum(STREAM_POLICIES),
  daily_limit: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Tenant = z.output<typeof tenantSchema>;

/** external_id: 1-128 characters from letters, digits, `.`, `_`, `:`, `@`, `-` (spec, Tenant). */
export const EXTERNAL_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Tenant metadata is at most 4 KB, measured as its JSON text in UTF-8. */
export const METADATA_MAX_BYTES = 4096;

/** The public shape (GET /tenants/{tenant}): every field of the spec's Tenant table. */
export function publicTenant(tenant: Tenant) {
  return {
    id: tenant.id,
    object: 'tenant' as const,
    external_id: tenant.external_id,
    name: tenant.name,
    status: tenant.status,
    paused_reason: tenant.paused_reason,
    paused_at: tenant.paused_at,
    pause_source: tenant.pause_source,
    default_from_domain: tenant.default_from_domain,
    stream_policy: tenant.stream_policy,
    daily_limit: tenant.daily_limit,
    metadata: tenant.metadata,
    created_at: tenant.created_at,
    updated_at: tenant.updated_at,
  };
}
