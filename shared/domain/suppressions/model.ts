import type { OptOutCategory, SuppressionReason } from './reasons';

/**
 * Which list an entry is on: the account-wide list (applies to every send of the account) or a tenant's
 * list (applies to that tenant's sends, on top of the account-wide list).
 */
export type SuppressionScope = 'account' | 'tenant';

/** One suppressed address on one list. There is at most one per (account, tenant or none, email). */
export interface Suppression {
  id: string;
  account_id: string;
  /** Normalised: trimmed and lower-cased. */
  email: string;
  scope: SuppressionScope;
  /** The tenant id (ten_...) whose list this is; null on the account-wide list. */
  tenant: string | null;
  reason: SuppressionReason;
  created_at: string;
}

/** The public record: `tenant` is the list's tenant by external_id (given by the caller, who resolved the list). */
export function toPublicSuppression(suppression: Suppression, tenantExternalId: string | null) {
  return {
    object: 'suppression' as const,
    id: suppression.id,
    email: suppression.email,
    scope: suppression.scope,
    tenant: suppression.tenant === null ? null : tenantExternalId,
    reason: suppression.reason,
    created_at: suppression.created_at,
  };
}

/** A recipient's opt-out of one category of mail (not a suppression: other mail still reaches them). */
export interface CategoryOptOut {
  account_id: string;
  /** The tenant id (ten_...) whose opt-out this is; null for the account. */
  tenant: string | null;
  email: string;
  category: OptOutCategory;
  created_at: string;
}

export function scopeOf(tenant: string | null): SuppressionScope {
  return tenant === null ? 'account' : 'tenant';
}
