/** A sending domain, its DNS records and their verification state. */

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
/**
 * pending: never verified (records not found or wrong at the last check, or every record right and the
 * mail provider still verifying the domain: see `provider`);
 * verified: every required record checked out, the service signed with the domain's DKIM key, and the
 * mail provider (SES) can send from it;
 * failed: was verified, but a later check found a required record missing or wrong (sending stops).
 */
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export type RecordPurpose = 'ownership' | 'dkim' | 'return_path' | 'spf' | 'dmarc' | 'inbound_mx';

export type RecordStatus = 'pending' | 'verified' | 'not_found' | 'invalid' | 'temporary_failure';

export interface DnsRecord {
  purpose: RecordPurpose;
  type: 'TXT' | 'CNAME' | 'MX';
  /** Fully qualified host name. */
  name: string;
  /** What to publish (for MX: the exchange host). */
  value: string;
  priority?: number;
  /** Required to verify the domain (DMARC and the inbound MX are reported, not required). */
  required: boolean;
  status: RecordStatus;
  /** Values found at the last check. */
  found?: string[];
  /** What is wrong and how to fix it, when not verified. */
  message?: string;
}

/**
 * The mail provider's own verification of the domain (SES verifies an identity later, once it has seen
 * the DKIM record): the domain becomes `verified` only when this is `verified`.
 */
export interface ProviderVerification {
  status: 'pending' | 'verified' | 'failed';
  /** What the provider reported, and what happens next. */
  message: string;
  checked_at: string;
}

export const TLS_MODES = ['opportunistic', 'enforced'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

export interface Domain {
  id: string;
  account_id: string;
  name: string;
  status: DomainStatus;
  /** The owning tenant's id (ten_...), null when the domain is account-wide. */
  tenant_id: string | null;
  /** The owning tenant's external_id (immutable, so kept with the id), null when account-wide. */
  tenant: string | null;
  records: DnsRecord[];
  dkim_selector: string;
  /** The DKIM public key (base64 SPKI DER), as published in `p=`. */
  dkim_public_key: string;
  ownership_token: string;
  open_tracking: boolean;
  click_tracking: boolean;
  tls_mode: TlsMode;
  inbound_enabled: boolean;
  inbound_subdomain: string | null;
  created_at: string;
  updated_at: string;
  verified_at: string | null;
  last_checked_at: string | null;
  /** Null until the DNS records first all checked out and the domain was registered with the provider. */
  provider: ProviderVerification | null;
}

export function toPublicDomain(domain: Domain) {
  return {
    object: 'domain' as const,
    id: domain.id,
    name: domain.name,
    status: domain.status,
    tenant: domain.tenant,
    records: domain.records,
    open_tracking: domain.open_tracking,
    click_tracking: domain.click_tracking,
    tls_mode: domain.tls_mode,
    inbound_enabled: domain.inbound_enabled,
    inbound_subdomain: domain.inbound_subdomain,
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
