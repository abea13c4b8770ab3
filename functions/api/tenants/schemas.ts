/** Response schemas of the tenants group. */
import * as z from 'zod';
import { STREAM_POLICIES, TENANT_STATUSES, type publicTenant } from '#shared/domain/tenants/tenant';
import { BOUNCE_CATEGORIES, type BounceCategory } from '#shared/domain/bounces/bounce-category';
import type { getTenantStats } from '#shared/usecases/tenants/get-tenant-stats';
import { describing, idOf, nullableTimestamp, timestamp } from '#shared/doors/openapi/common-schemas';

export const tenantSchema = describing<ReturnType<typeof publicTenant>>()(
  z.strictObject({
    id: idOf('ten').describe("the tenant's id (ten_...)"),
    object: z.literal('tenant').describe('always `tenant`'),
    external_id: z.string().describe('your own id for the tenant: 1-128 of letters, digits, . _ : @ -; unique in the account, immutable'),
    name: z.string().describe('a label for people (defaults to external_id)'),
    status: z.enum(TENANT_STATUSES).describe("active, or paused: the tenant's new emails are refused (403 forbidden)"),
    paused_reason: z.string().nullable().describe('why it was paused; null while active'),
    paused_at: nullableTimestamp.describe('when it was paused (ISO 8601); null while active'),
    pause_source: z
      .enum(['manual', 'automated'])
      .nullable()
      .describe('manual (PATCH) or automated (the service, for bounce or complaint rates: only support resumes it); null while active'),
    default_from_domain: z.string().nullable().describe('the domain a bare local part `from` is completed with; null for none'),
    stream_policy: z.enum(STREAM_POLICIES).describe('all (default), or transactional_only: product and newsletter email is refused'),
    daily_limit: z.number().int().nullable().describe('most recipients per UTC day, on top of the ramp; null for none'),
    metadata: z.record(z.string(), z.unknown()).nullable().describe('your JSON object (at most 4 KB as JSON), or null'),
    created_at: timestamp.describe('when the tenant was created (ISO 8601)'),
    updated_at: timestamp.describe('when the tenant last changed (ISO 8601)'),
  }),
);

export const tenantEnvelopeSchema = z.strictObject({ tenant: tenantSchema.describe('the tenant') });

export const tenantDeletedSchema = z.strictObject({
  id: idOf('ten').describe("the deleted tenant's id (ten_...)"),
  object: z.literal('tenant').describe('always `tenant`'),
  external_id: z.string().describe('its external_id (free for a new tenant now)'),
  deleted: z.literal(true).describe('always true'),
});

const count = z.number().int();
/** Recipients per stream: product and newsletter mail count as product. */
const streams = (what: string) =>
  z.strictObject({
    transactional: count.describe(`${what}: transactional recipients`),
    product: count.describe(`${what}: product and newsletter recipients`),
  });
const emails = (what: string) => count.describe(`emails ${what}; counted by the UTC day they were accepted`);

export const tenantStatsSchema = describing<Awaited<ReturnType<typeof getTenantStats>>>()(
  z.strictObject({
    tenant: tenantSchema.describe('the tenant'),
    stats: z
      .strictObject({
        object: z.literal('tenant_stats').describe('always `tenant_stats`'),
        days: count.describe('UTC days counted, today included (1-90, ?days)'),
        from: timestamp.describe('00:00 UTC of the first day counted (ISO 8601)'),
        total: emails('accepted or refused'),
        queued: emails('accepted to send now'),
        scheduled: emails('accepted with scheduled_at'),
        sent: emails('sent'),
        delivered: emails('delivered'),
        bounced: emails('bounced'),
        complained: emails('complained about'),
        failed: emails('failed'),
        suppressed: emails('refused for suppressed or opted-out recipients'),
        opened: emails('opened (the first human open)'),
        clicked: emails('clicked (the first human click)'),
        bounce_rate: z.number().describe('bounced / sent, a fraction (0 when nothing was sent)'),
        complaint_rate: z.number().describe('complained / sent, a fraction (0 when nothing was sent)'),
        bounce_categories: z
          .strictObject(
            Object.fromEntries(
              BOUNCE_CATEGORIES.map((category) => [category, emails(`that bounced or failed delivering as ${category}`)]),
            ) as Record<BounceCategory, typeof count>,
          )
          .describe(
            'emails that bounced or failed delivering, by bounce category (docs/deliverability.md, "Bounce categories"; counted from this release on)',
          ),
      })
      .describe('counts over the last `days` UTC days'),
    ramp: z
      .strictObject({
        object: z.literal('tenant_ramp').describe('always `tenant_ramp`'),
        active: z.boolean().describe('true while the ramp limits sending; false once it is complete'),
        stage: count.describe('the ramp stage (1 to 11): the limits double at each stage'),
        daily_limit: streams('limit per UTC day').nullable().describe('null when the ramp is complete'),
        used_today: streams('used today (UTC)').describe('recipients counted today, per stream'),
        completed: z.boolean().describe('true once the ramp is complete (no ramp limit)'),
        resets_at: timestamp.describe('the next 00:00 UTC, when the daily counts reset (ISO 8601)'),
      })
      .describe("the tenant's sending ramp today"),
  }),
);
