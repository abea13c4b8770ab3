/** Response schemas of the domains and tenants groups. */
import * as z from 'zod';
import { DOMAIN_STATUSES, TLS_MODES, type toPublicDomain } from '../../domain/domains/domain';
import { DNS_HOSTS } from '../../domain/domains/dns-apply';
import { STREAM_POLICIES, TENANT_STATUSES, type publicTenant } from '../../domain/tenants/tenant';
import type { ApplyReport } from '../../usecases/dns-apply';
import type { getTenantStats } from '../../usecases/get-tenant-stats';
import { describing, idOf, nullableTimestamp, timestamp } from './common';

const RECORD_PURPOSES = ['ownership', 'dkim', 'return_path', 'spf', 'dmarc', 'inbound_mx'] as const;
const RECORD_TYPES = ['TXT', 'CNAME', 'MX'] as const;

export const dnsRecordSchema = z.strictObject({
  purpose: z.enum(RECORD_PURPOSES),
  type: z.enum(RECORD_TYPES),
  name: z.string().describe('fully qualified host name'),
  value: z.string().describe('what to publish (for MX: the exchange host)'),
  priority: z.number().int().optional().describe('MX only'),
  required: z.boolean().describe('required to verify (DMARC and the inbound MX are reported, not required)'),
  status: z.enum(['pending', 'verified', 'not_found', 'invalid', 'temporary_failure']),
  found: z.array(z.string()).optional().describe('values found at the last check'),
  message: z.string().optional().describe('what is wrong and how to fix it, when not verified'),
});

export const domainSchema = describing<ReturnType<typeof toPublicDomain>>()(
  z.strictObject({
    object: z.literal('domain'),
    id: idOf('dom'),
    name: z.string(),
    status: z.enum(DOMAIN_STATUSES),
    tenant: z.string().nullable().describe("the owning tenant's external_id; null when account-wide"),
    records: z.array(dnsRecordSchema),
    open_tracking: z.boolean(),
    click_tracking: z.boolean(),
    tls_mode: z.enum(TLS_MODES),
    inbound_enabled: z.boolean(),
    inbound_subdomain: z.string().nullable().describe('the receive-only subdomain (inbound.<domain>) when inbound_enabled'),
    created_at: timestamp,
    updated_at: timestamp,
    verified_at: nullableTimestamp,
    last_checked_at: nullableTimestamp,
  }),
);

export const domainEnvelopeSchema = z.strictObject({ domain: domainSchema });

export const applyReportSchema = describing<ApplyReport>()(
  z.strictObject({
    provider: z.enum(DNS_HOSTS),
    zone: z.strictObject({ id: z.string(), name: z.string() }),
    credentials: z.enum(['request', 'stored', 'service']).describe("where the credentials came from: this request's, stored ones, or the service's own role (Route 53)"),
    settled: z.boolean().nullable().describe('Route 53: whether the change was INSYNC before verifying'),
    records: z.array(
      z.strictObject({
        purpose: z.enum(RECORD_PURPOSES),
        type: z.enum(RECORD_TYPES),
        name: z.string(),
        value: z.string(),
        action: z.enum(['created', 'updated', 'unchanged', 'failed']),
        previous: z.string().optional().describe('what was there before an update'),
        message: z.string(),
      }),
    ),
  }),
);

/** POST /domains/{id}: `apply` is there for {action: "apply"}. */
export const domainActionResultSchema = z.strictObject({ domain: domainSchema, apply: applyReportSchema.optional() });

export const tenantSchema = describing<ReturnType<typeof publicTenant>>()(
  z.strictObject({
    id: idOf('ten'),
    object: z.literal('tenant'),
    external_id: z.string(),
    name: z.string(),
    status: z.enum(TENANT_STATUSES),
    paused_reason: z.string().nullable(),
    paused_at: nullableTimestamp,
    pause_source: z.enum(['manual', 'automated']).nullable(),
    default_from_domain: z.string().nullable(),
    stream_policy: z.enum(STREAM_POLICIES),
    daily_limit: z.number().int().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const tenantEnvelopeSchema = z.strictObject({ tenant: tenantSchema });

export const tenantDeletedSchema = z.strictObject({ id: idOf('ten'), object: z.literal('tenant'), external_id: z.string(), deleted: z.literal(true) });

const count = z.number().int();
const streams = z.strictObject({ transactional: count, product: count });

export const tenantStatsSchema = describing<Awaited<ReturnType<typeof getTenantStats>>>()(
  z.strictObject({
    tenant: tenantSchema,
    stats: z.strictObject({
      object: z.literal('tenant_stats'),
      days: count,
      from: timestamp,
      total: count,
      queued: count,
      scheduled: count,
      sent: count,
      delivered: count,
      bounced: count,
      complained: count,
      failed: count,
      suppressed: count,
      opened: count,
      clicked: count,
      bounce_rate: z.number().describe('bounced / sent (a fraction)'),
      complaint_rate: z.number().describe('complained / sent (a fraction)'),
    }),
    ramp: z.strictObject({
      object: z.literal('tenant_ramp'),
      active: z.boolean(),
      stage: count,
      daily_limit: streams.nullable().describe('null when the ramp is complete'),
      used_today: streams,
      completed: z.boolean(),
      resets_at: timestamp,
    }),
  }),
);
