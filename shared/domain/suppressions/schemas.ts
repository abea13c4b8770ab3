/** Request schemas of /suppressions: the single source of their validation and types. */
import { z } from 'zod';
import { isEmailAddress, normaliseEmail } from '../emails/address';
import { API_SUPPRESSION_REASONS, MAX_SUPPRESSIONS_PER_REQUEST, SUPPRESSION_REASONS } from './reasons';

/** An address as stored on a list: trimmed and lower-cased. */
export const suppressionEmail = z
  .string({ error: (issue) => (issue.input === undefined ? 'email is required' : 'must be a string') })
  .trim()
  .refine(isEmailAddress, { message: 'must be a valid email address' })
  .transform(normaliseEmail);

/** A tenant named by a request (tenants arrive with their own feature; see usecases/suppressions.ts). */
export const tenantParam = z.string().trim().min(1, 'tenant must not be empty').max(128, 'tenant is at most 128 characters');

const ADD_FIELDS = ['email', 'emails', 'reason', 'tenant'];

/**
 * `POST /suppressions`: `{email}` or `{emails: [...]}` (exactly one of them), `reason` (only `manual`),
 * `tenant`. Unknown fields are refused rather than ignored: a `category` silently dropped would turn a
 * category opt-out into a suppression of all mail.
 */
export const addSuppressionsSchema = z
  .looseObject({
    email: suppressionEmail.optional(),
    emails: z
      .array(suppressionEmail, { error: 'emails must be an array of email addresses' })
      .min(1, 'emails needs at least one address')
      .max(MAX_SUPPRESSIONS_PER_REQUEST, `emails takes at most ${MAX_SUPPRESSIONS_PER_REQUEST} addresses per request`)
      .optional(),
    reason: z
      .enum(API_SUPPRESSION_REASONS, {
        error: 'only manual can be set through the API; bounce, complaint and unsubscribe are recorded by the service',
      })
      .optional(),
    tenant: tenantParam.optional(),
  })
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!ADD_FIELDS.includes(key)) ctx.addIssue({ code: 'custom', path: [key], message: `unknown field; accepted fields: ${ADD_FIELDS.join(', ')}` });
    }
    const hasEmail = body.email !== undefined;
    const hasEmails = body.emails !== undefined;
    if (hasEmail === hasEmails) {
      const message = hasEmail ? 'give either email or emails, not both' : 'email or emails is required';
      ctx.addIssue({ code: 'custom', path: ['email'], message });
      ctx.addIssue({ code: 'custom', path: ['emails'], message });
    }
  })
  .transform((body) => ({
    // Deduplicated after normalisation, in the order given.
    emails: [...new Set(body.email !== undefined ? [body.email] : (body.emails ?? []))],
    reason: body.reason ?? ('manual' as const),
    tenant: body.tenant,
  }));

export type AddSuppressionsInput = z.output<typeof addSuppressionsSchema>;

/** Filters of `GET /suppressions` (the page parameters `limit` and `cursor` come from the HTTP frame). */
export const suppressionFiltersSchema = z.object({
  email: suppressionEmail.optional(),
  reason: z.enum(SUPPRESSION_REASONS, { error: `reason must be one of ${SUPPRESSION_REASONS.join(', ')}` }).optional(),
  tenant: tenantParam.optional(),
});

export type SuppressionFilters = z.output<typeof suppressionFiltersSchema>;

/** `DELETE /suppressions?email=&tenant=`. */
export const removeSuppressionSchema = z.object({
  email: suppressionEmail,
  tenant: tenantParam.optional(),
});

export type RemoveSuppressionInput = z.output<typeof removeSuppressionSchema>;
