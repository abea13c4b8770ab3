/**
 * The send request (body of POST /emails): the spec's fields and aliases, normalised into one shape.
 * This schema is the single source of validation and of the `SendRequest` type.
 */
import { z } from 'zod';
import { formatMailbox, parseBareSender, parseMailbox, type Mailbox } from './address';
import { findHeaderProblems } from './headers';
import { scheduledAtField } from './schedule';
import { ATTACHMENTS_ON_SCHEDULED_SEND, attachmentsSchema } from './attachments';

export { rejectAttachmentsInBatch } from './attachments';

export const MAX_RECIPIENTS = 50;
export const MAX_TAGS = 10;
const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;

/** Fields the spec defines that later releases implement; refused rather than silently ignored. */
const notYetSupported = (field: string) => z.undefined({ message: `${field} is not supported by this server version yet` }).optional();

export const CATEGORIES = ['transactional', 'product', 'newsletter'] as const;
export type Category = (typeof CATEGORIES)[number];

const ALIASES: Record<string, string> = {
  htmlBody: 'html',
  html_body: 'html',
  textBody: 'text',
  text_body: 'text',
  plain_body: 'text',
  replyTo: 'reply_to',
  scheduledAt: 'scheduled_at',
};

/** Maps aliases onto canonical names; the canonical name wins when both are present. */
function applyAliases(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const canonical = ALIASES[key];
    if (canonical === undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(input)) {
    const canonical = ALIASES[key];
    if (canonical !== undefined && out[canonical] === undefined) out[canonical] = value;
  }
  return out;
}

const mailbox = z.string().transform((value, ctx): Mailbox => {
  const parsed = parseMailbox(value);
  if (!parsed) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address` });
    return z.NEVER;
  }
  return parsed;
});

/**
 * The sender: an address, or a bare local part (`billing`, `Billing <billing>`, {email: "billing"}) that
 * the send core completes with the tenant's default_from_domain (spec, Send request `from`); without
 * such a tenant the send core refuses it (400 naming `from`). The output's `email` then has no `@`.
 */
const senderOf = (value: string): Mailbox | null => parseMailbox(value) ?? parseBareSender(value);

const fromField = z.union([
  z.string().transform((value, ctx): Mailbox => {
    const parsed = senderOf(value);
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address (or a bare local part for a tenant with default_from_domain)` });
      return z.NEVER;
    }
    return parsed;
  }),
  z.object({ email: z.string(), name: z.string().max(200).optional() }).transform((value, ctx): Mailbox => {
    const parsed = parseMailbox(value.email) ?? parseBareSender(value.email);
    if (!parsed || /[\r\n]/.test(value.name ?? '')) {
      ctx.addIssue({ code: 'custom', message: `"${value.email}" is not a valid email address` });
      return z.NEVER;
    }
    return value.name ? { email: parsed.email, name: value.name } : { email: parsed.email };
  }),
]);

const addressList = z
  .union([mailbox, z.array(mailbox)])
  .transform((value) => (Array.isArray(value) ? value : [value]).map(formatMailbox));

const tag = z.object({
  name: z.string().regex(TAG_PART, 'tag names are 1-256 letters, digits, _ or -'),
  value: z.string().regex(TAG_PART, 'tag values are 1-256 letters, digits, _ or -'),
});

const tags = z
  .union([
    z.array(tag),
    z.record(z.string(), z.string()).transform((record) => Object.entries(record).map(([name, value]) => ({ name, value }))),
  ])
  .pipe(z.array(tag).max(MAX_TAGS, `at most ${MAX_TAGS} tags`));

const headers = z.record(z.string(), z.string()).superRefine((value, ctx) => {
  for (const problem of findHeaderProblems(value)) {
    ctx.addIssue({ code: 'custom', path: [problem.header], message: problem.reason });
  }
});

export const sendRequestSchema = z.preprocess(
  applyAliases,
  z
    .object({
      from: fromField,
      to: addressList,
      // One line: a CR or LF would end the Subject header (the composer folds it safely, but the stored
      // record, GET and webhooks would show it), so it is refused like a header value.
      subject: z.string().min(1, 'subject is required').max(998).refine((value) => !/[\r\n]/.test(value), 'subject must be a single line (no CR or LF)'),
      html: z.string().optional(),
      text: z.string().optional(),
      cc: addressList.optional(),
      bcc: addressList.optional(),
      reply_to: addressList.optional(),
      tags: tags.optional(),
      headers: headers.optional(),
      scheduled_at: scheduledAtField.optional(),
      category: z.enum(CATEGORIES, { message: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
      attachments: attachmentsSchema.optional(),
      /** The tenant the send is for (external_id or id); resolved by the send core (403 without tenants). */
      tenant: z.string().min(1).max(128).optional(),
      template: notYetSupported('template'),
      unsubscribe: notYetSupported('unsubscribe'),
    })
    .superRefine((value, ctx) => {
      if (value.html === undefined && value.text === undefined) {
        ctx.addIssue({ code: 'custom', path: ['html'], message: 'one of html or text is required' });
      }
      const count = value.to.length + (value.cc?.length ?? 0) + (value.bcc?.length ?? 0);
      if (value.to.length === 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'at least one recipient is required' });
      // Rule 8: scheduled sends store the body; attachment bytes are not kept for later.
      if (value.attachments?.length && value.scheduled_at !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['attachments'], message: ATTACHMENTS_ON_SCHEDULED_SEND });
      }
      if (count > MAX_RECIPIENTS) {
        ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${MAX_RECIPIENTS} recipients (to, cc and bcc together)` });
      }
    }),
);

/** The normalised send request: derived from the schema, never written by hand. */
export type SendRequest = z.output<typeof sendRequestSchema>;
