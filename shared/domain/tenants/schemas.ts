/** Request schemas of the tenants group: the single source of their validation and types. */
import * as z from 'zod';
import { domainName } from '../mail/address';
import { boundedRef, describeFreeForm, freeFormObject, TENANT_REF_MAX_CHARS, type FreeFormBounds } from '../bounds';
import { EXTERNAL_ID_PATTERN, METADATA_MAX_BYTES, STREAM_POLICIES, TENANT_STATUSES } from './tenant';

const METADATA_BOUNDS: FreeFormBounds = { maxBytes: METADATA_MAX_BYTES };
const metadata = freeFormObject('metadata', METADATA_BOUNDS).nullable();

const name = z.string().trim().min(1, 'name must not be empty').max(200, 'name is at most 200 characters');
const streamPolicy = z.enum(STREAM_POLICIES, { message: `stream_policy must be one of ${STREAM_POLICIES.join(', ')}` });
const dailyLimit = z
  .number({ message: 'daily_limit must be a whole number of recipients per UTC day, or null' })
  .int('daily_limit must be a whole number')
  .min(1, 'daily_limit must be at least 1 (null removes it)')
  .max(100_000_000)
  .nullable();

/**
 * A tenant named in a body or query (a send's `tenant`, a list's `?tenant=`): its external_id or id, of
 * at most TENANT_REF_MAX_CHARS characters and no control characters; whether it names one is the
 * lookup's answer (404).
 */
export const tenantParam = boundedRef('tenant', TENANT_REF_MAX_CHARS, 'the tenant external_id or id');

const NAME_DOC = 'a label for people: 1-200 characters';
const DEFAULT_FROM_DOC = 'a domain name: a send for the tenant whose from is a bare local part (`billing`) is completed with it';
const STREAM_POLICY_DOC = 'all, or transactional_only: product and newsletter email is refused (403)';
const DAILY_LIMIT_DOC = 'most recipients per UTC day (1-100,000,000), on top of the ramp';
const METADATA_DOC = `your JSON object, ${describeFreeForm(METADATA_BOUNDS)}`;

export const createTenantSchema = z
  .object({
    external_id: z
      .string({ message: 'external_id is required' })
      .regex(EXTERNAL_ID_PATTERN, 'external_id must be 1-128 characters of letters, digits, . _ : @ -')
      .describe('your own id for the customer: 1-128 of letters, digits, . _ : @ -; unique in the account, immutable'),
    name: name.optional().describe(`${NAME_DOC} (default: external_id)`),
    default_from_domain: domainName.nullable().optional().describe(`${DEFAULT_FROM_DOC}; null or absent for none`),
    stream_policy: streamPolicy.optional().describe(`${STREAM_POLICY_DOC}; default all`),
    daily_limit: dailyLimit.optional().describe(`${DAILY_LIMIT_DOC}; null or absent for none`),
    metadata: metadata.optional().describe(`${METADATA_DOC}, or null`),
  })
  .strict();
export type CreateTenantInput = z.infer<typeof createTenantSchema>;

export const updateTenantSchema = z
  .object({
    status: z
      .enum(TENANT_STATUSES, { message: `status must be one of ${TENANT_STATUSES.join(', ')}` })
      .optional()
      .describe('paused: its new emails are refused (403 forbidden); active: resumes (not a tenant the service paused)'),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500, 'reason is at most 500 characters')
      .optional()
      .describe('why it is paused (1-500 characters); only with status paused'),
    name: name.optional().describe(NAME_DOC),
    default_from_domain: domainName.nullable().optional().describe(`${DEFAULT_FROM_DOC}; null removes it`),
    stream_policy: streamPolicy.optional().describe(STREAM_POLICY_DOC),
    daily_limit: dailyLimit.optional().describe(`${DAILY_LIMIT_DOC}; null removes it`),
    metadata: metadata.optional().describe(`${METADATA_DOC}; replaces the stored one (null clears it)`),
    external_id: z.never({ message: 'external_id is immutable' }).optional().describe('refused: external_id is immutable'),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one field to change' })
  .refine((value) => value.reason === undefined || value.status === 'paused', {
    message: 'reason is only accepted with status paused',
    path: ['reason'],
  });
export type UpdateTenantInput = z.infer<typeof updateTenantSchema>;

export const listTenantsQuerySchema = z.object({
  status: z
    .enum(TENANT_STATUSES, { message: `status must be one of ${TENANT_STATUSES.join(', ')}` })
    .optional()
    .describe('only tenants in this status: active or paused'),
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
