import { deterministicId, newId } from '../ids';
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
  /**
   * Set on entries an import wrote (POST /migrations): which import and which provider list. A request
   * that works a page again after a crash counts its own earlier writes as imported, not as present.
   */
  imported_by?: { migration: string; list: string };
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

/**
 * A recipient's opt-out of one category of mail (not a suppression: other mail still reaches them). There
 * is at most one per (account, tenant or none, email, category).
 */
export interface CategoryOptOut {
  /** `cop_` + ULID (newOptOutId); never changes while the opt-out exists. */
  id: string;
  account_id: string;
  /** The tenant id (ten_...) whose opt-out this is; null for the account. */
  tenant: string | null;
  /** Normalised: trimmed and lower-cased. */
  email: string;
  category: OptOutCategory;
  created_at: string;
}

/** A category opt-out's public id: `cop_` and a ULID (time-sortable, like every id of shared/domain/ids.ts). */
export function newOptOutId(now: number): string {
  return newId('cop', now);
}

/**
 * The id of an opt-out recorded before opt-outs had ids: the ULID time of its created_at and 80 bits of
 * the SHA-256 of its item key, so the same record always reads with the same id.
 */
export function derivedOptOutId(createdAt: string, itemKey: string): string {
  const time = Date.parse(createdAt);
  return deterministicId('cop', Number.isFinite(time) ? time : 0, itemKey);
}

/** The public record: `tenant` is the list's tenant by external_id (given by the caller, who resolved the list). */
export function toPublicCategoryOptOut(optOut: CategoryOptOut, tenantExternalId: string | null) {
  return {
    object: 'category_opt_out' as const,
    id: optOut.id,
    email: optOut.email,
    category: optOut.category,
    tenant: optOut.tenant === null ? null : tenantExternalId,
    created_at: optOut.created_at,
  };
}

export function scopeOf(tenant: string | null): SuppressionScope {
  return tenant === null ? 'account' : 'tenant';
}
