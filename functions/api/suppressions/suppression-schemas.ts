/** Response schemas of the suppression lists and category opt-outs (suppressions group). */
import * as z from 'zod';
import { OPT_OUT_CATEGORIES, SUPPRESSION_REASONS } from '#shared/domain/suppressions/reasons';
import type { toPublicCategoryOptOut, toPublicSuppression } from '#shared/domain/suppressions/model';
import { describing, idOf, timestamp } from '#shared/doors/openapi/common-schemas';

export const suppressionSchema = describing<ReturnType<typeof toPublicSuppression>>()(
  z.strictObject({
    object: z.literal('suppression').describe('always `suppression`'),
    id: idOf('sup').describe("the suppression's id (sup_...)"),
    email: z.string().describe('the suppressed address (trimmed, lower-cased)'),
    scope: z.enum(['account', 'tenant']).describe("account: the account-wide list; tenant: a tenant's list"),
    tenant: z.string().nullable().describe("the list's tenant (external_id); null on the account-wide list"),
    reason: z
      .enum(SUPPRESSION_REASONS)
      .describe(
        'bounce (a hard bounce), complaint (a spam complaint), unsubscribe (from all mail): set by the service; manual: added through the API',
      ),
    created_at: timestamp.describe('when the address was suppressed (ISO 8601)'),
  }),
);

export const categoryOptOutSchema = describing<ReturnType<typeof toPublicCategoryOptOut>>()(
  z.strictObject({
    object: z.literal('category_opt_out').describe('always `category_opt_out`'),
    id: idOf('cop').describe("the opt-out's id (cop_...)"),
    email: z.string().describe('the address that opted out (trimmed, lower-cased)'),
    category: z.enum(OPT_OUT_CATEGORIES).describe('the category of mail the address no longer gets (transactional mail still goes)'),
    tenant: z.string().nullable().describe("the list's tenant (external_id); null on the account-wide list"),
    created_at: timestamp.describe('when the address opted out (ISO 8601)'),
  }),
);

/** POST /suppressions: 201 when at least one address was added, 200 when all were already there. */
export const suppressionsAddedSchema = z.union([
  z.strictObject({
    suppressions: z.array(suppressionSchema).describe('one record per distinct address, in request order (existing ones unchanged)'),
    created: z.array(z.string()).describe('addresses added by this call'),
    existing: z.array(z.string()).describe('addresses that were already on the list'),
  }),
  z.strictObject({
    category_opt_outs: z.array(categoryOptOutSchema).describe('with category: one opt-out per distinct address, in request order'),
    created: z.array(z.string()).describe('addresses that opted out with this call'),
    existing: z.array(z.string()).describe('addresses that had already opted out of the category on that list'),
  }),
]);

const page = {
  has_more: z.boolean().describe('true when another page follows (a filtered page may hold fewer than ?limit records)'),
  next_cursor: z.string().nullable().describe('pass as ?cursor= for the next page; null on the last page'),
};

/** GET /suppressions: suppressions (with `email`, also that address's category opt-outs), or with `category` the opt-outs. */
export const suppressionListSchema = z.union([
  z.strictObject({
    suppressions: z.array(suppressionSchema).describe("this page's suppressions, newest first (with ?email: zero or one)"),
    category_opt_outs: z.array(categoryOptOutSchema).optional().describe("with ?email only: that address's opt-outs on the same list"),
    ...page,
  }),
  z.strictObject({
    category_opt_outs: z.array(categoryOptOutSchema).describe("with ?category: this page of the category's opt-outs, newest first"),
    ...page,
  }),
]);

export const suppressionRemovedSchema = z.union([
  z.strictObject({ ok: z.literal(true).describe('always true'), suppression: suppressionSchema.describe('the removed suppression') }),
  z.strictObject({
    ok: z.literal(true).describe('always true'),
    category_opt_out: categoryOptOutSchema.describe('the removed opt-out (re-subscribed)'),
  }),
]);
