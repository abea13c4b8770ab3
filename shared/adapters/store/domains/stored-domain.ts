/**
 * The domain's items as the store keeps them, and how they read back: the domain (with its sealed DKIM
 * key), its name claim (what a send reads about its sender's domain) and its membership under a tenant.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { DOMAIN_STATUSES, domainSchema, type Domain, type DomainStatus } from '#shared/domain/domains/domain';
import { decodeItem } from '../decode';
import { keys } from '../keys';
import type { Table } from '../table';

export interface StoredDomain {
  domain: Domain;
  /** The DKIM private key, sealed by the secret box. */
  sealedPrivateKey: string;
  /**
   * When a check first found the provider still verifying the domain (ISO; null or absent when it is
   * not): the start of SES's 72-hour window, for the reconciler (shared/domain/domains/provider-recheck.ts).
   */
  providerPendingSince?: string | null;
}

/**
 * What a send needs to know about its sender's domain, kept on the name claim item (one read by name,
 * in the send's batch) and written together with the domain whenever its status changes.
 */
export interface SenderDomain {
  id: string;
  account_id: string;
  status: DomainStatus;
  /** The tenant id owning the domain (claim attribute `tenant_id`), null for an account-wide domain. */
  tenant_id: string | null;
}

/**
 * A claim item in today's layout, whatever its age (reads go through here). The claim of an account-wide
 * domain has no `tenant_id` (null), as have items written before 8009b52 (2026-11-22, tenant send rules).
 * Items written before 57eb99f (2026-11-22, the send core's one context read) have no `status`: it stays
 * undefined, and the send path reads the domain item instead (shared/usecases/send/send-email.ts).
 */
function upgradeClaimItem<T extends Record<string, unknown>>(item: T): T {
  return { ...item, tenant_id: item.tenant_id ?? null };
}

/** The claim item as its upgrade leaves it (`status` absent on the oldest claims). */
const claimItemSchema = z.object({
  domain_id: z.string(),
  account_id: z.string(),
  status: z.enum(DOMAIN_STATUSES).optional(),
  tenant_id: z.string().nullable(),
});

/** The claim item as read: its owner, and the send-time fields. */
export function toSenderDomain(
  stored: Record<string, unknown>,
): SenderDomain | { id: string; account_id: string; status: undefined; tenant_id: string | null } {
  const item = decodeItem(claimItemSchema, upgradeClaimItem(stored), 'SenderDomain');
  return { id: item.domain_id, account_id: item.account_id, status: item.status, tenant_id: item.tenant_id };
}

/**
 * Absent (not NULL) until set: the late fields are set later with if_not_exists; the owner fields are
 * removed when a domain returns to the account, and `attribute_not_exists(tenant_id)` says "account-wide".
 * Each reads as null (domainSchema's defaults).
 */
export const LATE_FIELDS = ['verified_at', 'last_checked_at', 'tenant_id', 'tenant', 'provider'] as const;

/** The domain item: the domain, its sealed DKIM key, and the start of the provider's window while it verifies. */
const domainItemSchema = domainSchema.extend({
  dkim_private_key_sealed: z.string(),
  provider_pending_since: z.string().nullable().optional(),
});

export function toStoredDomain(item: Record<string, unknown>): StoredDomain {
  const { dkim_private_key_sealed, provider_pending_since, ...domain } = decodeItem(domainItemSchema, item, 'Domain');
  return { domain, sealedPrivateKey: dkim_private_key_sealed, providerPendingSince: provider_pending_since ?? null };
}

/** A domain without its key (a listing, a write's answer): the schema drops `dkim_private_key_sealed`. */
export function toDomain(item: Record<string, unknown>): Domain {
  return decodeItem(domainSchema, item, 'Domain');
}

/** The domain item by id, strongly consistent (null when there is none). */
export async function readStoredDomain(table: Table, domainId: string): Promise<StoredDomain | null> {
  const result = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.domain(domainId), ConsistentRead: true }));
  return result.Item ? toStoredDomain(result.Item) : null;
}

/** The membership item of a tenant's domain (under the tenant's partition, in id order). */
export function membershipItem(accountId: string, tenantId: string, domainId: string) {
  return { ...keys.tenantDomain(tenantId, domainId), type: 'tenant_domain', account_id: accountId, domain_id: domainId };
}
