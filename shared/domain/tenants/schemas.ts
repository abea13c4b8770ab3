/** Request schemas of the tenants group: the single source of their validation and types. */
import * as z from 'zod';
import { domainName } from '../emails/address';
import { EXTERNAL_ID_PATTERN, METADATA_MAX_BYTES, STREAM_POLICIES, TENANT_STATUSES } from './tenant';

const metadata = z
  .record(z.string(), z.unknown(), { message: 'metadata must be a JSON object' })
  .nullable()
  .refine((value) => value === null || Buffer.byteLength(JSON.stringify(value), 'utf8') <= METADATA_MAX_BYTES, {
    message: `metadata is at most ${METADATA_MAX_BYTES} bytes as JSON`,
  });

const name = z.string().trim().min(1, 'name must not be empty').max(200, 'name is at most 200 characters');
const streamPolicy = z.enum(STREAM_POLICIES, { message: `stream_policy must be one of ${STREAM_POLICIES.join(', ')}` });
const dailyLimit = z
  .number({ message: 'daily_limit must be a whole number of recipients per UTC day, or null' })
  .int('daily_limit must be a whole number')
  .min(1, 'daily_limit must be at least 1 (null removes it)')
  .max(100_000_000)
  .nullable();

/** A tenant named in a path, body or query: its external_id or its id. */
export const tenantRef = z
  .string({ message: 'tenant must be a string (the tenant external_id or id)' })
  .trim()
  .regex(EXTERNAL_ID_PATTERN, 'tenant must be 1-128 characters of letters, digits, . _ : @ -');

export const createTenantSchema = z
  .object({
    external_id: z
      .string({ message: 'external_id is required' })
      .regex(EXTERNAL_ID_PATTERN, 'external_id must be 1-128 characters of letters, digits, . _ : @ -'),
    name: name.optional(),
    default_from_domain: domainName.nullable().optional(),
    stream_policy: streamPolicy.optional(),
    daily_limit: dailyLimit.optional(),
    metadata: metadata.optional(),
  })
  .strict();
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export const updateTenantSchema = z
  .object({
    status: z.enum(TENANT_STATUSES, { message: `status must be one of ${TENANT_STATUSES.join(', ')}` }).optional(),
    reason: z.string().trim().min(1).max(500, 'reason is at most 500 characters').optional(),
    name: name.optional(),
    default_from_domain: domainName.nullable().optional(),
    stream_policy: streamPolicy.optional(),
    daily_limit: dailyLimit.optional(),
    metadata: metadata.optional(),
    external_id: z.never({ message: 'external_id is immutable' }).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one field to change' })
  .refine((value) => value.reason === undefined || value.status === 'paused', { message: 'reason is only accepted with status paused', path: ['reason'] });
export type UpdateTenantInput = z.infer<typeof updateTenantSchema>;

export const listTenantsQuerySchema = z.object({
  status: z.enum(TENANT_STATUSES, { message: `status must be one of ${TENANT_STATUSES.join(', ')}` }).optional(),
});

/** GET /tenants/{tenant}/stats?days=: 1-90 UTC days ending today, default 7. */
export const tenantStatsQuerySchema = z.object({
  days: z.coerce
    .number({ message: 'days must be a whole number from 1 to 90' })
    .int('days must be a whole number from 1 to 90')
    .min(1, 'days must be a whole number from 1 to 90')
    .max(90, 'days must be a whole number from 1 to 90')
    .default(7),
});
