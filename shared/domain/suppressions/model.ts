import * as z from 'zod';
import { deterministicId, newId } from '../ids';
import { OPT_OUT_CATEGORIES, SUPPRESSION_REASONS } from './reasons';

/**
 * Which list an entry is on: the account-wide list (applies to every send of the account) or a tenant's
 * list (applies to that tenant's sends, on top of the account-wide list).
 */
export const SUPPRESSION_SCOPES = ['account', 'tenant'] as const;
export type SuppressionScope = (typeof SUPPRESSION_SCOPES)[number];

/**
 * One suppressed address on one list. There is at most one per (account, tenant or none, email). The
 * schema of the stored item (the store decodes with it: shared/adapters/store/suppressions.ts) is the
 * single source of the type.
 */
export const suppressionSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  /** Normalised: trimmed and lower-cased. */
  email: z.string(),
  scope: z.enum(SUPPRESSION_SCOPES),
  /** The tenant id (ten_...) whose list this is; null (or absent on the item) on the account-wide list. */
  tenant: z.string().nullable().default(null),
  reason: z.enum(SUPPRESSION_REASONS),
  created_at: z.string(),
  /**
   * Set on entries an import wrote (POST /migrations): which import and which provider list. A request
   * that works a page again after a crash counts its own earlier writes as imported, not as present.
   */
  imported_by: z.object({ migration: z.string(), list: z.string() }).optional(),
});
export type Suppression = z.output<typeof suppressionSchema>;

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
 * is at most one per (account, tenant or none, email, category). The schema of the stored item, as its
 * upgrade (shared/adapters/store/category-opt-outs.ts) leaves it, is the single source of the type.
 */
export const categoryOptOutSchema = z.object({
  /** `cop_` + ULID (newOptOutId); never changes while the opt-out exists. */
  id: z.string(),
  account_id: z.string(),
  /** The tenant id (ten_...) whose opt-out this is; null for the account. */
  tenant: z.string().nullable(),
  /** Normalised: trimmed and lower-cased. */
  email: z.string(),
  category: z.enum(OPT_OUT_CATEGORIES),
  created_at: z.string(),
});
export type CategoryOptOut = z.output<typeof categoryOptOutSchema>;

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
