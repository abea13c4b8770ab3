/** Request validation for /migrations (the single source of the request types; docs/imports.md). */
import * as z from 'zod';
import { IMPORT_RESOURCES, PROVIDERS } from './source';

/** A provider key: printable, no whitespace inside, at most 512 characters (real keys are far shorter). */
const providerKey = (field: string) =>
  z
    .string({ error: `${field} is required (a string)` })
    .trim()
    .min(1, `${field} is required`)
    .max(512, `${field} is at most 512 characters`)
    .regex(/^[\x21-\x7e]+$/, `${field} must be printable ASCII without spaces`);

/**
 * POST /migrations. Unknown fields are refused. `region` applies to SendGrid and Mailgun (Postmark has
 * one region); `account_api_key` to Postmark only. A continuation repeats the first body with `cursor`.
 */
export const startImportSchema = z
  .strictObject({
    provider: z.enum(PROVIDERS, { error: `provider must be one of ${PROVIDERS.join(', ')}` }).describe('the provider to import from'),
    api_key: providerKey('api_key').describe(
      "the provider's key, used for this request only (never stored): a SendGrid API key, a Postmark server token or a Mailgun private key",
    ),
    account_api_key: providerKey('account_api_key')
      .optional()
      .describe('Postmark only: the account token, needed to import sending domains'),
    region: z
      .enum(['us', 'eu'], { error: 'region must be us or eu' })
      .optional()
      .describe("the provider's region for SendGrid and Mailgun: us (default) or eu (not for Postmark)"),
    resources: z
      .array(z.enum(IMPORT_RESOURCES, { error: `resources are ${IMPORT_RESOURCES.join(', ')}` }), { error: 'resources must be an array' })
      .min(1, 'resources must name at least one resource (or be left out for all)')
      .optional()
      .describe('what to import (default all); always worked in the order domains, webhooks, templates, suppressions'),
    dry_run: z
      .boolean({ error: 'dry_run must be a boolean' })
      .optional()
      .describe('true: a preview that writes nothing and is not kept (suppressions counted from the first page of each list)'),
    cursor: z
      .string({ error: 'cursor must be a string' })
      .min(1)
      .max(200, 'cursor is at most 200 characters')
      .optional()
      .describe("the previous answer's next_cursor, to continue (repeat the rest of the body)"),
  })
  .superRefine((value, ctx) => {
    if (value.account_api_key !== undefined && value.provider !== 'postmark') {
      ctx.addIssue({ code: 'custom', path: ['account_api_key'], message: 'account_api_key applies to postmark only' });
    }
    if (value.region === 'eu' && value.provider === 'postmark') {
      ctx.addIssue({ code: 'custom', path: ['region'], message: 'postmark has one region: leave region out (or us)' });
    }
  })
  .transform((value) => ({
    ...value,
    region: value.region ?? ('us' as const),
    // In IMPORT_RESOURCES order whatever order was given: the import works them in that order.
    resources: IMPORT_RESOURCES.filter((resource) => (value.resources ?? IMPORT_RESOURCES).includes(resource)),
    dry_run: value.dry_run ?? false,
  }));
export type StartImportInput = z.output<typeof startImportSchema>;

/** GET /migrations: newest first, limit up to 100. */
export const listImportsQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(20),
  cursor: z.string().max(2048).optional(),
});
export type ListImportsQuery = z.output<typeof listImportsQuerySchema>;

/** GET /migrations/{id}/report: CSV by default, JSON with ?format=json. */
export const reportQuerySchema = z.object({
  format: z
    .enum(['csv', 'json'], { error: 'format is csv or json' })
    .default('csv')
    .describe('csv (default: a download, columns resource,item,status,id,count,message) or json (the same rows)'),
});
