/** A sending domain, its DNS records and their verification state. */
import * as z from 'zod';
import { inboundRouteSchema } from './inbound-routes';
import { publicDmarcReports } from './dmarc-reports';
import { linkRecordsOfDomain, type DomainLinkRecord, type StoredLinkDomain } from './link-domain/link-domain';

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
/**
 * pending: never verified (records not found or wrong at the last check, or every record right and the
 * mail provider still verifying the domain: see `provider`);
 * verified: every required record checked out, the service signed with the domain's DKIM key, and the
 * mail provider (SES) can send from it;
 * failed: was verified, but a later check found a required record missing or wrong (sending stops).
 */
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const RECORD_PURPOSES = ['ownership', 'dkim', 'return_path', 'spf', 'dmarc', 'inbound_mx'] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];

export const RECORD_STATUSES = ['pending', 'verified', 'not_found', 'invalid', 'temporary_failure'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

export const dnsRecordSchema = z.object({
  purpose: z.enum(RECORD_PURPOSES),
  type: z.enum(['TXT', 'CNAME', 'MX']),
  /** Fully qualified host name. */
  name: z.string(),
  /** What to publish (for MX: the exchange host). */
  value: z.string(),
  priority: z.number().optional(),
  /** Required to verify the domain (DMARC and the inbound MX are reported, not required). */
  required: z.boolean(),
  status: z.enum(RECORD_STATUSES),
  /** Values found at the last check. */
  found: z.array(z.string()).optional(),
  /** What is wrong and how to fix it, when not verified. */
  message: z.string().optional(),
});
export type DnsRecord = z.output<typeof dnsRecordSchema>;

/**
 * The mail provider's own verification of the domain (SES verifies an identity later, once it has seen
 * the DKIM record): the domain becomes `verified` only when this is `verified`.
 */
export const providerVerificationSchema = z.object({
  status: z.enum(['pending', 'verified', 'failed']),
  /** What the provider reported, and what happens next. */
  message: z.string(),
  checked_at: z.string(),
});
export type ProviderVerification = z.output<typeof providerVerificationSchema>;

export const TLS_MODES = ['opportunistic', 'enforced'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

/**
 * The schema of the stored domain without its sealed DKIM key (the store decodes with it:
 * shared/adapters/store/domains/stored-domain.ts), the single source of the type. Absent attributes read as null: the
 * ones filled later (verified_at, last_checked_at, provider) and the owner fields of an account-wide
 * domain; a domain stored before inbound existed has no inbound_enabled (off) nor inbound_subdomain.
 */
export const domainSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  name: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  /** The owning tenant's id (ten_...), null when the domain is account-wide. */
  tenant_id: z.string().nullable().default(null),
  /** The owning tenant's external_id (immutable, so kept with the id), null when account-wide. */
  tenant: z.string().nullable().default(null),
  records: z.array(dnsRecordSchema),
  dkim_selector: z.string(),
  /** The DKIM public key (base64 SPKI DER), as published in `p=`. */
  dkim_public_key: z.string(),
  ownership_token: z.string(),
  open_tracking: z.boolean(),
  click_tracking: z.boolean(),
  tls_mode: z.enum(TLS_MODES),
  inbound_enabled: z.boolean().default(false),
  inbound_subdomain: z.string().nullable().default(null),
  /** Content redaction of received mail (docs/redaction.md): false records the metadata only; absent (domains of before it): true. */
  inbound_store_content: z.boolean().optional(),
  /** Its receiving subdomain's routes, in order (./inbound-routes.ts); absent: none (every recipient as without routes). */
  inbound_routes: z.array(inboundRouteSchema).optional(),
  /** When the routes were last set; absent when never. */
  inbound_routes_updated_at: z.string().optional(),
  /** Where receivers send its DMARC aggregate reports (./dmarc-reports.ts); absent or null: not read. */
  dmarc_reports_address: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  verified_at: z.string().nullable().default(null),
  last_checked_at: z.string().nullable().default(null),
  /**
   * The host of its link domain while that is active (`links.<domain>`: docs/tracking.md "Link domains"), which
   * the send worker signs its tracked and unsubscribe links under; absent or null: LINKS_BASE_URL.
   */
  link_host: z.string().nullable().optional(),
  /** Null until the DNS records first all checked out and the domain was registered with the provider. */
  provider: providerVerificationSchema.nullable().default(null),
});
export type Domain = z.output<typeof domainSchema>;

/**
 * The domain as the API shows it; `linkDomain`, its stored link domain if read (./link-domain/link-domain.ts):
 * its records are listed after the domain's own (shared/usecases/domains/public-domains.ts reads it).
 */
export function toPublicDomain(domain: Domain, linkDomain: StoredLinkDomain | null = null) {
  const records: (DnsRecord | DomainLinkRecord)[] = [...domain.records, ...linkRecordsOfDomain(domain.id, linkDomain)];
  return {
    object: 'domain' as const,
    id: domain.id,
    name: domain.name,
    status: domain.status,
    tenant: domain.tenant,
    records,
    open_tracking: domain.open_tracking,
    click_tracking: domain.click_tracking,
    tls_mode: domain.tls_mode,
    inbound_enabled: domain.inbound_enabled,
    inbound_subdomain: domain.inbound_subdomain,
    inbound_store_content: domain.inbound_store_content !== false,
    dmarc_reports: publicDmarcReports(domain),
    created_at: domain.created_at,
    updated_at: domain.updated_at,
    verified_at: domain.verified_at,
    last_checked_at: domain.last_checked_at,
    provider: domain.provider,
  };
}

/** Who may see or manage a domain (shared/usecases/access/visibility.ts compares `tenant` with a key's tenant id). */
export function domainOwner(domain: Pick<Domain, 'account_id' | 'tenant_id'>): { account_id: string; tenant: string | null } {
  return { account_id: domain.account_id, tenant: domain.tenant_id ?? null };
}

/** Binds a sealed DKIM key to its domain: a key copied to another record does not open. */
export const dkimKeyContext = (domainId: string) => ({ purpose: 'dkim', domain_id: domainId });
