/** Request schemas of /suppressions: the single source of their validation and types. */
import * as z from 'zod';
import { isEmailAddress, normaliseEmail } from '../mail/address';
import { tenantParam } from '../tenants/schemas';
import {
  API_SUPPRESSION_REASONS,
  MAX_SUPPRESSIONS_PER_REQUEST,
  OPT_OUT_CATEGORIES,
  SUPPRESSION_REASONS,
  type OptOutCategory,
} from './reasons';

/** An address as stored on a list: trimmed and lower-cased. */
export const suppressionEmail = z
  .string({ error: (issue) => (issue.input === undefined ? 'email is required' : 'must be a string') })
  .trim()
  .refine(isEmailAddress, { message: 'must be a valid email address' })
  .transform(normaliseEmail);

/**
 * `category`: a category a recipient can opt out of. `transactional` is refused with its own reason:
 * transactional mail (receipts, password resets) has no opt-out, only the suppression of the address.
 */
export const optOutCategoryParam = z.enum(OPT_OUT_CATEGORIES, {
  error: (issue) =>
    issue.input === 'transactional'
      ? 'transactional mail has no category opt-out; to stop all mail to the address, suppress it (leave category out)'
      : `category must be one of ${OPT_OUT_CATEGORIES.join(', ')}`,
});

/** `reason` belongs to suppressions: an opt-out says only which category the recipient left. */
const NO_REASON_WITH_CATEGORY = 'a category opt-out has no reason; leave reason out, or leave category out to suppress the address';

const ADD_FIELDS = ['email', 'emails', 'reason', 'tenant', 'category'];

/**
 * `POST /suppressions`: `{email}` or `{emails: [...]}` (exactly one of them), `tenant`, and either
 * `reason` (only `manual`: suppressions) or `category` (`product` | `newsletter`: category opt-outs
 * instead of suppressions). Unknown fields are refused rather than ignored: a misspelt `category`
 * silently dropped would turn a category opt-out into a suppression of all mail.
 *
 * The output says which: `{emails, reason, tenant}` (suppressions) or `{emails, category, tenant}`.
 */
export const addSuppressionsSchema = z
  .looseObject({
    email: suppressionEmail.optional().describe('one address (stored trimmed and lower-cased); send either email or emails'),
    emails: z
      .array(suppressionEmail, { error: 'emails must be an array of email addresses' })
      .min(1, 'emails needs at least one address')
      .max(MAX_SUPPRESSIONS_PER_REQUEST, `emails takes at most ${MAX_SUPPRESSIONS_PER_REQUEST} addresses per request`)
      .optional()
      .describe(`1-${MAX_SUPPRESSIONS_PER_REQUEST} addresses (duplicates after lower-casing count once); send either email or emails`),
    reason: z
      .enum(API_SUPPRESSION_REASONS, {
        error: 'only manual can be set through the API; bounce, complaint and unsubscribe are recorded by the service',
      })
      .optional()
      .describe('manual (the default and the only one accepted: the others are set by the service); refused with category'),
    tenant: tenantParam.optional().describe("add to this tenant's list (external_id or id) instead of the account-wide list"),
    category: optOutCategoryParam
      .optional()
      .describe('product or newsletter: the addresses opt out of that category instead of being suppressed'),
  })
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!ADD_FIELDS.includes(key))
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown field; accepted fields: ${ADD_FIELDS.join(', ')}` });
    }
    const hasEmail = body.email !== undefined;
    const hasEmails = body.emails !== undefined;
    if (hasEmail === hasEmails) {
      const message = hasEmail ? 'give either email or emails, not both' : 'email or emails is required';
      ctx.addIssue({ code: 'custom', path: ['email'], message });
      ctx.addIssue({ code: 'custom', path: ['emails'], message });
    }
    if (body.category !== undefined && body.reason !== undefined)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: NO_REASON_WITH_CATEGORY });
  })
  .transform((body) => {
    // Deduplicated after normalisation, in the order given.
    const emails = [...new Set(body.email !== undefined ? [body.email] : (body.emails ?? []))];
    return body.category === undefined
      ? { emails, reason: body.reason ?? ('manual' as const), tenant: body.tenant }
      : { emails, category: body.category, tenant: body.tenant };
  });

/** What `POST /suppressions` asks for: suppressions, or category opt-outs (`category` set). */
export type AddToListInput = z.output<typeof addSuppressionsSchema>;
export type AddCategoryOptOutsInput = Extract<AddToListInput, { category: OptOutCategory }>;
export type AddSuppressionsInput = Exclude<AddToListInput, { category: OptOutCategory }>;

/**
 * Filters of `GET /suppressions` (the page parameters `limit` and `cursor` come from the HTTP frame).
 * With `category` the listing is of that category's opt-outs (`reason` is then refused). A schema built
 * from these fields applies `checkSuppressionFilters` too.
 */
export const suppressionFilterFields = {
  email: suppressionEmail
    .optional()
    .describe("an exact lookup of one address (case-insensitive): zero or one record, plus that address's category opt-outs on the list"),
  reason: z
    .enum(SUPPRESSION_REASONS, { error: `reason must be one of ${SUPPRESSION_REASONS.join(', ')}` })
    .optional()
    .describe('only records with this reason (refused with category)'),
  tenant: tenantParam.optional().describe("list this tenant's list (external_id or id) instead of the account-wide list"),
  category: optOutCategoryParam.optional().describe("list this category's opt-outs (product or newsletter) instead of suppressions"),
};

/** The filters' rule across fields: opt-outs have no reason. */
export function checkSuppressionFilters(filters: { reason?: unknown; category?: unknown }, ctx: z.RefinementCtx): void {
  if (filters.category !== undefined && filters.reason !== undefined)
    ctx.addIssue({ code: 'custom', path: ['reason'], message: NO_REASON_WITH_CATEGORY });
}

export const suppressionFiltersSchema = z.object(suppressionFilterFields).superRefine(checkSuppressionFilters);

export type SuppressionFilters = z.output<typeof suppressionFiltersSchema>;

/** `DELETE /suppressions?email=&tenant=[&category=]`: the suppression, or with `category` that opt-out. */
export const removeSuppressionSchema = z.object({
  email: suppressionEmail.describe('the address to remove (case-insensitive)'),
  tenant: tenantParam.optional().describe("remove it from this tenant's list (external_id or id) instead of the account-wide list"),
  category: optOutCategoryParam
    .optional()
    .describe("remove the address's opt-out of this category (re-subscribe) instead of its suppression"),
});

export type RemoveSuppressionInput = z.output<typeof removeSuppressionSchema>;
