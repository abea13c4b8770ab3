/**
 * The send request (body of POST /emails): the spec's fields and aliases, normalised into one shape.
 * This schema is the single source of validation and of the `SendRequest` type.
 */
import * as z from 'zod';
import { formatMailbox, parseBareSender, parseMailbox, type Mailbox } from '../mail/address';
import { findHeaderProblems, MAX_CUSTOM_HEADERS } from './headers';
import { scheduledAtField } from './schedule';
import { TEMPLATE_ALIAS } from '../templates/template';
import { VARIABLE_VALUES_BOUNDS } from '../templates/render';
import { describeFreeForm, freeFormObject } from '../bounds';
import { tenantParam } from '../tenants/schemas';
import { ATTACHMENTS_ON_SCHEDULED_SEND, attachmentsSchema } from './attachments';

export { rejectAttachmentsInBatch } from './attachments';
import { CATEGORIES } from '../mail/category';

export const MAX_RECIPIENTS = 50;
export const MAX_TAGS = 10;
const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;

/** Accepted aliases of send request fields (alias -> canonical name); the OpenAPI document lists them. */
export const SEND_REQUEST_ALIASES: Readonly<Record<string, string>> = {
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
    const canonical = SEND_REQUEST_ALIASES[key];
    if (canonical === undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(input)) {
    const canonical = SEND_REQUEST_ALIASES[key];
    if (canonical !== undefined && out[canonical] === undefined) out[canonical] = value;
  }
  return out;
}

// `continue: true` on the issues below: in a union (one address or a list), zod then reports this branch's
// issue (the address, what is wrong, the form to use) instead of a bare "Invalid input" for the union.
const ADDRESS_FORM = 'write name@example.com or "Name <name@example.com>"';

const mailbox = z.string().transform((value, ctx): Mailbox => {
  const parsed = parseMailbox(value);
  if (!parsed) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a valid email address: ${ADDRESS_FORM}`, continue: true });
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

const fromField = z.union(
  [
    z.string().transform((value, ctx): Mailbox => {
      const parsed = senderOf(value);
      if (!parsed) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not a valid email address (or a bare local part for a tenant with default_from_domain): ${ADDRESS_FORM}`,
          continue: true,
        });
        return z.NEVER;
      }
      return parsed;
    }),
    z
      .object({
        email: z.string().describe('the address (or a bare local part for a tenant with default_from_domain)'),
        name: z.string().max(200).optional().describe('the display name (at most 200 characters, one line)'),
      })
      .transform((value, ctx): Mailbox => {
        const parsed = parseMailbox(value.email) ?? parseBareSender(value.email);
        if (!parsed || /[\r\n]/.test(value.name ?? '')) {
          ctx.addIssue({
            code: 'custom',
            message: `"${value.email}" is not a valid email address (and name is one line): ${ADDRESS_FORM}`,
            continue: true,
          });
          return z.NEVER;
        }
        return value.name ? { email: parsed.email, name: value.name } : { email: parsed.email };
      }),
  ],
  { error: `must be an email address or {email, name}: ${ADDRESS_FORM}` },
);

const addressList = z
  .union([mailbox, z.array(mailbox)], { error: `must be an email address or a list of them: ${ADDRESS_FORM}` })
  .transform((value) => (Array.isArray(value) ? value : [value]).map(formatMailbox));

const tag = z.object({
  name: z.string().regex(TAG_PART, 'tag names are 1-256 letters, digits, _ or -').describe('the tag name: 1-256 of A-Za-z0-9_-'),
  value: z.string().regex(TAG_PART, 'tag values are 1-256 letters, digits, _ or -').describe('the tag value: 1-256 of A-Za-z0-9_-'),
});

const tags = z
  .union([
    z.array(tag),
    z.record(z.string(), z.string()).transform((record) => Object.entries(record).map(([name, value]) => ({ name, value }))),
  ])
  .pipe(z.array(tag).max(MAX_TAGS, `at most ${MAX_TAGS} tags`));

const headers = z.record(z.string(), z.string()).superRefine((value, ctx) => {
  if (Object.keys(value).length > MAX_CUSTOM_HEADERS) {
    ctx.addIssue({ code: 'custom', message: `at most ${MAX_CUSTOM_HEADERS} headers` });
    return;
  }
  for (const problem of findHeaderProblems(value)) {
    ctx.addIssue({ code: 'custom', path: [problem.header], message: problem.reason });
  }
});

/**
 * `template: {id: <alias>, variables}` (spec, Send request): the email's subject and body come from the
 * template's published version; `from` and `reply_to` default to the template's. Variable values are
 * checked by the renderer (shared/domain/templates/render.ts) when the template is known.
 */
const templateField = z.object(
  {
    id: z
      .string({ error: 'template.id (the template alias) is required' })
      .regex(TEMPLATE_ALIAS, 'template.id must be a template alias (lower-case letters, digits, _ or -, at most 64)')
      .describe('the alias of a published template'),
    variables: freeFormObject('template.variables', VARIABLE_VALUES_BOUNDS)
      .optional()
      .describe(
        `values of the template's placeholders: strings, numbers, booleans or null (an object or array, or a placeholder without value nor fallback, is a 400); ${describeFreeForm(VARIABLE_VALUES_BOUNDS)}`,
      ),
  },
  { error: 'template must be an object {id, variables}' },
);

/** A send's own tracking switch (`track_opens`, `track_clicks`): over the sending domain's setting. */
const trackingSwitch = (field: string, effect: string, domainSetting: string) =>
  z
    .boolean({ error: `${field} must be a boolean` })
    .optional()
    .describe(
      `true or false: ${effect}, whatever its sending domain's ${domainSetting}; absent: the domain's setting (the template's, for a template send that sets one). Sandbox-domain mail is never tracked`,
    );

export const sendRequestSchema = z.preprocess(
  applyAliases,
  z
    .object({
      // Required unless a template gives them (checked below).
      from: fromField.optional(),
      to: addressList,
      // One line: a CR or LF would end the Subject header (the composer folds it safely, but the stored
      // record, GET and webhooks would show it), so it is refused like a header value.
      subject: z
        .string()
        .min(1, 'subject is required')
        .max(998)
        .refine((value) => !/[\r\n]/.test(value), 'subject must be a single line (no CR or LF)')
        .optional(),
      html: z.string().optional(),
      text: z.string().optional(),
      cc: addressList.optional().describe('An address or a list; to, cc and bcc together at most 50.'),
      bcc: addressList.optional().describe('An address or a list; to, cc and bcc together at most 50.'),
      reply_to: addressList.optional().describe("An address or a list: the Reply-To header (default: the template's, if any)."),
      tags: tags.optional(),
      headers: headers.optional(),
      scheduled_at: scheduledAtField.optional(),
      category: z.enum(CATEGORIES, { message: `category must be one of ${CATEGORIES.join(', ')}` }).optional(),
      attachments: attachmentsSchema.optional(),
      /** The tenant the send is for (external_id or id); resolved by the send core (403 without tenants). */
      tenant: tenantParam.optional(),
      template: templateField.optional(),
      /** Managed unsubscribe (spec rule 10); absent = the template's unsubscribe_enabled (off without a template). */
      unsubscribe: z.boolean({ error: 'unsubscribe must be a boolean' }).optional(),
      /** Open and click tracking of this email, over the sending domain's settings (docs/tracking.md, "Per message"). */
      track_opens: trackingSwitch('track_opens', 'this email gets the open pixel or not', 'open_tracking'),
      track_clicks: trackingSwitch('track_clicks', "this email's links are tracked or not", 'click_tracking'),
      /** false: the body, attachments and subject are dropped once sent (docs/redaction.md); true cannot override an account that keeps none. */
      store_content: z
        .boolean({ error: 'store_content must be a boolean' })
        .optional()
        .describe(
          "false: the body, attachments' bytes and subject are dropped once SES accepted the message (docs/redaction.md); a send may turn storing off, never on when the account has it off",
        ),
      /** true: recipients whose domain takes no mail are refused (422) before the send is accepted (docs/deliverability.md, "Validating at send time"). */
      validate: z
        .boolean({ error: 'validate must be a boolean' })
        .optional()
        .describe(
          "true: once the send has passed every sending rule (sender, recipients, suppressions, limits), each recipient counts against the plan's hourly validation allowance (429 rate_limited past it) and each recipient's domain is looked up: a send to one that takes no mail (no MX, A or AAAA record, or a null MX) is refused with 422 validation_error naming it; risky addresses (DNS failure, disposable, role) are sent. A request looks up at most 50 distinct domains (a batch over it: 400)",
        ),
    })
    .superRefine((value, ctx) => {
      if (value.template) {
        // Resend's rule: the template is the content (its html/text are rendered, not merged with others).
        for (const field of ['html', 'text'] as const) {
          if (value[field] !== undefined)
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message: `${field} cannot be combined with template: the template's published version is the content`,
            });
        }
      } else {
        if (value.from === undefined)
          ctx.addIssue({ code: 'custom', path: ['from'], message: 'from is required (or a template with a default from)' });
        if (value.subject === undefined) ctx.addIssue({ code: 'custom', path: ['subject'], message: 'subject is required' });
        if (value.html === undefined && value.text === undefined) {
          ctx.addIssue({ code: 'custom', path: ['html'], message: 'one of html or text is required' });
        }
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

/** The request as parsed: derived from the schema, never written by hand (from/subject may wait for a template). */
export type ParsedSendRequest = z.output<typeof sendRequestSchema>;

/**
 * The request the send core decides on: the template (if any) rendered into subject and body, so
 * `from` and `subject` are always there (shared/usecases/send/template-content.ts).
 */
export type SendRequest = Omit<ParsedSendRequest, 'from' | 'subject' | 'template'> & {
  from: NonNullable<ParsedSendRequest['from']>;
  subject: string;
  /** Set when the content came from a template: which one and the published version used. */
  from_template?: { alias: string; version: number };
};

/** A request without a template is already complete (the schema required from and subject). */
export function isCompleteRequest(
  request: ParsedSendRequest,
): request is ParsedSendRequest & { from: NonNullable<ParsedSendRequest['from']>; subject: string; template: undefined } {
  return request.template === undefined && request.from !== undefined && request.subject !== undefined;
}
