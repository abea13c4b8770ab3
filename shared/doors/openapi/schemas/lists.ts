/** Response schemas of webhooks, suppressions, received email and templates. */
import * as z from 'zod';
import { OPT_OUT_CATEGORIES, SUPPRESSION_REASONS } from '../../../domain/suppressions/reasons';
import type { toPublicCategoryOptOut, toPublicSuppression } from '../../../domain/suppressions/model';
import type { toPublicDelivery } from '../../../domain/webhooks/delivery';
import { DELIVERY_STATUSES } from '../../../domain/webhooks/delivery';
import type { toPublicWebhook } from '../../../domain/webhooks/endpoint';
import { EVENT_TYPES } from '../../../domain/webhooks/event-types';
import type { toPublicReceivedEmail } from '../../../domain/inbound/received-email';
import type { getReceivedEmail } from '../../../usecases/inbound/received-emails';
import type { toPublicTemplate, toPublicTemplateSummary } from '../../../domain/templates/template';
import type { TemplatePreview } from '../../../usecases/templates/templates';
import { CATEGORIES } from '../../../domain/mail/category';
import { describing, idOf, nullableTimestamp, timestamp } from './common';

// ---------------------------------------------------------------------------------------------------
// Webhooks

export const webhookSchema = describing<ReturnType<typeof toPublicWebhook>>()(
  z.strictObject({
    object: z.literal('webhook').describe('always `webhook`'),
    id: idOf('wh').describe("the endpoint's id (wh_...)"),
    url: z.string().describe('the HTTPS URL events are POSTed to (normalised)'),
    events: z.array(z.enum(EVENT_TYPES)).describe('the subscribed event types'),
    enabled: z.boolean().describe('false: the endpoint receives nothing and its pending retries are cancelled'),
    tenants: z
      .array(z.string())
      .optional()
      .describe("only present when the endpoint is filtered to tenants (external_ids): it then gets only those tenants' email events"),
    created_at: timestamp.describe('when the endpoint was added (ISO 8601)'),
    updated_at: timestamp.describe('when the endpoint last changed (ISO 8601)'),
  }),
);

export const webhookCreatedSchema = z.strictObject({
  webhook: webhookSchema.describe('the endpoint'),
  secret: z.string().regex(/^whsec_/).describe('the signing secret: shown only here'),
});

export const webhookEnvelopeSchema = z.strictObject({ webhook: webhookSchema.describe('the endpoint') });

export const deliverySchema = describing<ReturnType<typeof toPublicDelivery>>()(
  z.strictObject({
    object: z.literal('webhook_delivery').describe('always `webhook_delivery`'),
    id: idOf('whd').describe("the delivery's id (whd_...): one per endpoint and event"),
    webhook_id: idOf('wh').describe('the endpoint (wh_...)'),
    event_id: idOf('evt').describe('the event (evt_...): the webhook-id header, the same on every retry and replay'),
    event_type: z.string().describe('the event type, e.g. email.delivered'),
    status: z
      .enum(DELIVERY_STATUSES)
      .describe('pending (queued or waiting for a retry), succeeded (a 2xx), failed (the last retry failed) or cancelled (endpoint disabled or deleted)'),
    attempts: z
      .array(
        z.strictObject({
          attempt: z.number().int().describe('1 for the first try'),
          at: timestamp.describe('when the attempt was made (ISO 8601)'),
          status_code: z.number().int().nullable().describe("the endpoint's HTTP status; null without an HTTP answer"),
          duration_ms: z.number().describe('how long the attempt took, in milliseconds (the timeout is 10 s)'),
          error: z.string().nullable().describe('connection error, timeout or refusal, when there was no HTTP answer'),
          response_excerpt: z.string().nullable().describe('the first 500 characters of the response body'),
        }),
      )
      .describe('every attempt so far, oldest first'),
    next_attempt_at: nullableTimestamp.describe('when the next attempt is due while pending (ISO 8601); null once succeeded, failed or cancelled'),
    payload: z.unknown().describe('the exact JSON body sent'),
    created_at: timestamp.describe('when the delivery was created (ISO 8601)'),
    updated_at: timestamp.describe('when it last changed (ISO 8601)'),
  }),
);

export const deliveryEnvelopeSchema = z.strictObject({ delivery: deliverySchema.describe('the delivery with its attempts') });

// ---------------------------------------------------------------------------------------------------
// Suppressions

export const suppressionSchema = describing<ReturnType<typeof toPublicSuppression>>()(
  z.strictObject({
    object: z.literal('suppression').describe('always `suppression`'),
    id: idOf('sup').describe("the suppression's id (sup_...)"),
    email: z.string().describe('the suppressed address (trimmed, lower-cased)'),
    scope: z.enum(['account', 'tenant']).describe("account: the account-wide list; tenant: a tenant's list"),
    tenant: z.string().nullable().describe("the list's tenant (external_id); null on the account-wide list"),
    reason: z
      .enum(SUPPRESSION_REASONS)
      .describe('bounce (a hard bounce), complaint (a spam complaint), unsubscribe (from all mail): set by the service; manual: added through the API'),
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
  z.strictObject({ category_opt_outs: z.array(categoryOptOutSchema).describe("with ?category: this page of the category's opt-outs, newest first"), ...page }),
]);

export const suppressionRemovedSchema = z.union([
  z.strictObject({ ok: z.literal(true).describe('always true'), suppression: suppressionSchema.describe('the removed suppression') }),
  z.strictObject({ ok: z.literal(true).describe('always true'), category_opt_out: categoryOptOutSchema.describe('the removed opt-out (re-subscribed)') }),
]);

// ---------------------------------------------------------------------------------------------------
// Received email

const authResult = (check: string) =>
  z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']).describe(`the ${check} verdict (temperror when it could not be checked)`);

const receivedAttachment = z.strictObject({
  id: z.string().regex(/^att_\d+$/).describe("the attachment's id in this message: att_<n>, n from 1 in the message's order"),
  filename: z.string().nullable().describe("the part's file name (RFC 2231 and RFC 2047 decoded); null when it has none"),
  content_type: z.string().describe('the MIME type (lower case)'),
  size: z.number().int().describe('bytes, decoded'),
  content_id: z.string().nullable().describe('the Content-ID as written (`<id>`); null when none'),
  content_disposition: z.enum(['attachment', 'inline']).describe('inline only when the part says so, else attachment'),
});

const receivedFields = {
  object: z.literal('received_email').describe('always `received_email`'),
  id: idOf('inb').describe("the received email's id (inb_...)"),
  status: z.literal('received').describe('always `received`'),
  from: z.string().describe('the From address as the sender wrote it (`Name <address>` or `address`)'),
  to: z.array(z.string()).describe('the To addresses (at most 100 kept)'),
  cc: z.array(z.string()).describe('the Cc addresses (at most 100 kept)'),
  reply_to: z.array(z.string()).describe('the Reply-To addresses (at most 100 kept)'),
  subject: z.string().describe('the Subject (at most 2,000 characters kept)'),
  message_id: z.string().nullable().describe('the Message-ID header (`<id>`); null when absent'),
  in_reply_to: z.string().nullable().describe('the In-Reply-To header; null when absent'),
  references: z.array(z.string()).describe('the message ids of the References header (at most 100 kept)'),
  date: nullableTimestamp.describe('the Date header (ISO 8601); null when absent or unreadable'),
  mail_from: z.string().describe("the envelope sender ('' for a bounce)"),
  rcpt_to: z.array(z.string()).describe("the envelope's recipients of this account"),
  plus_address: z.string().nullable().describe('the part after `+` in the first recipient that has one (`reply+ticket-42@` -> `ticket-42`); null otherwise'),
  spam_status: z
    .enum(['not_spam', 'spam'])
    .describe('spam when the From domain fails DMARC with policy quarantine or reject, or SPF fails and no DKIM signature passes (no content scanning)'),
  authentication: z
    .strictObject({
      spf: z
        .strictObject({
          result: authResult('SPF'),
          domain: z.string().nullable().describe("the domain checked: the envelope sender's (the EHLO name for a bounce); null when none"),
        })
        .describe('SPF of the connecting address'),
      dkim: z
        .array(
          z.strictObject({
            result: authResult('DKIM'),
            domain: z.string().nullable().describe('the signing domain (d=); null when missing'),
            selector: z.string().nullable().describe('the selector (s=); null when missing'),
            aligned: z.boolean().describe('whether the signing domain aligns with the From domain (for DMARC)'),
          }),
        )
        .describe('one entry per DKIM signature (the first 10); [] when unsigned or not checked'),
      dmarc: z
        .strictObject({
          result: authResult('DMARC'),
          domain: z.string().nullable().describe('the From domain the policy applies to; null when none'),
          policy: z.enum(['none', 'quarantine', 'reject']).nullable().describe("the domain's published policy; null when none"),
        })
        .describe('DMARC of the From domain'),
      spam_reasons: z.array(z.string()).describe('why spam_status is spam ([] when it is not)'),
    })
    .describe('the SPF, DKIM and DMARC verdicts, checked when the message was received'),
  auto_submitted: z
    .string()
    .nullable()
    .describe("the Auto-Submitted value when not `no`, or auto-generated for other machine mail; null for a person's mail (never auto-answer when set)"),
  stripped_text: z.string().nullable().describe('the text without quoted replies and signature'),
  attachment_count: z.number().int().describe('how many attachments the message has (all of them, listed or not)'),
  attachments: z.array(receivedAttachment).describe('metadata of the attachments (the first 100)'),
  size: z.number().int().describe('bytes of the raw message'),
  tls: z.boolean().describe('whether the sending server used STARTTLS'),
  parse_error: z.string().nullable().describe('why the message could not be read whole (what could be read is recorded); null when it could'),
  truncated: z.boolean().describe('true when address or reference lists (100 entries) or the subject (2,000 characters) were cut'),
  tenant: z.string().nullable().describe("the receiving domain's tenant (external_id); null for an account-wide domain"),
  received_at: timestamp.describe('when the MX listener received it (ISO 8601)'),
  content: z
    .enum(['kept', 'not_kept'])
    .describe(
      "content redaction (docs/redaction.md): `not_kept` when the receiving domain has `inbound_store_content: false`: the record is metadata only (no subject, stripped text, bodies, headers nor attachment list; `attachment_count` and `size` stay) and the raw message was deleted once recorded",
    ),
};

export const receivedEmailSummarySchema = describing<ReturnType<typeof toPublicReceivedEmail>>()(z.strictObject(receivedFields));

export const receivedEmailSchema = describing<Awaited<ReturnType<typeof getReceivedEmail>>>()(
  z.strictObject({
    ...receivedFields,
    html: z.string().nullable().describe('inline when the bodies are small enough; else null and html_url is set'),
    text: z.string().nullable().describe('the text body, inline when the bodies are small enough; else null and text_url is set (null when absent)'),
    html_url: z.string().nullable().describe('a presigned GET URL (1 hour) for a large body: a download (Content-Disposition: attachment) of its source as text/plain, never rendered'),
    text_url: z.string().nullable().describe('a presigned GET URL (1 hour) for a large text body, a download (text/plain); null otherwise'),
    headers: z
      .array(
        z.strictObject({
          name: z.string().describe('the field name as written'),
          value: z.string().describe('the value, unfolded and trimmed'),
        }),
      )
      .describe('every header field of the message, in order (repeated fields kept)'),
    attachments: z
      .array(
        receivedAttachment.extend({
          content: z.string().nullable().describe('the bytes in base64 when small enough; else null and download_url is set'),
          download_url: z.string().nullable().describe('a presigned GET URL (1 hour) when content is null, a download (Content-Disposition: attachment; an HTML, XML, SVG or script type served as application/octet-stream); else null'),
          expires_at: nullableTimestamp.describe('when download_url stops working (ISO 8601); null without one'),
        }),
      )
      .describe('the attachments (the first 100), with their bytes or a link'),
    raw: z
      .strictObject({
        download_url: z.string().describe('a presigned GET URL (1 hour) of the message as stored (with our Received: field)'),
        expires_at: timestamp.describe('when download_url stops working (ISO 8601)'),
        size: z.number().int().describe('bytes'),
      })
      .nullable()
      .describe('the raw message (RFC 5322); null when its content was not kept (`content: not_kept`)'),
  }),
);

export const receivedEmailEnvelopeSchema = z.strictObject({ received_email: receivedEmailSchema.describe('the received email, whole') });

// ---------------------------------------------------------------------------------------------------
// Templates

const templateFields = {
  object: z.literal('template').describe('always `template`'),
  id: idOf('tpl').describe("the template's id (tpl_...): never changes; a template re-created under the alias gets a new one"),
  alias: z.string().describe('its name in paths and sends: unique in the account, cannot be changed'),
  name: z.string().describe('a label for people'),
  subject: z.string().describe("the draft's subject (with placeholders)"),
  from: z.string().nullable().describe('the default sender of sends that give none (an address, `Name <address>` or a bare local part); null for none'),
  reply_to: z.array(z.string()).describe('default Reply-To addresses ([] for none)'),
  category: z.enum(CATEGORIES).describe('transactional (default), product or newsletter: the category of its sends unless they give one'),
  unsubscribe_enabled: z.boolean().describe('managed unsubscribe for its sends; always true for product and newsletter'),
  variables: z
    .array(
      z.strictObject({
        key: z.string().describe('the placeholder name (`{{key}}`)'),
        type: z.enum(['string', 'number']).describe("the type of the fallback value (values given at send are not converted)"),
        fallback_value: z.union([z.string(), z.number(), z.null()]).describe('used when a send gives no value; null for none'),
      }),
    )
    .describe('the declared placeholders'),
  status: z.enum(['draft', 'published']).describe('published once a version was published (the draft may have changed since)'),
  published_at: nullableTimestamp.describe('when the current published version was made (ISO 8601); null before the first publish'),
  has_unpublished_changes: z.boolean().describe('true when the draft differs from the published version (always true before the first publish)'),
  published_version: z.number().int().nullable().describe('the number of the published version (1, 2, ...); null before the first publish'),
  created_at: timestamp.describe('when the template was created (ISO 8601)'),
  updated_at: timestamp.describe('when the draft last changed or was published (ISO 8601)'),
};

export const templateSchema = describing<ReturnType<typeof toPublicTemplate>>()(
  z.strictObject({
    ...templateFields,
    html: z.string().nullable().describe("the draft's HTML body; null for none (html or text is always set)"),
    text: z.string().nullable().describe("the draft's text body; null for none"),
  }),
);
export const templateSummarySchema = describing<ReturnType<typeof toPublicTemplateSummary>>()(z.strictObject(templateFields));
export const templateEnvelopeSchema = z.strictObject({ template: templateSchema.describe('the template (its draft and what is published)') });

export const templatePreviewSchema = describing<TemplatePreview>()(
  z.strictObject({
    subject: z.string().describe('the rendered subject'),
    html: z.string().nullable().describe('the rendered HTML body (values HTML-escaped); null when the version has none'),
    text: z.string().nullable().describe('the rendered text body; null when the version has none'),
    warnings: z
      .array(
        z.strictObject({
          code: z
            .enum(['missing_variable', 'undeclared_variable', 'unknown_variable', 'unbalanced_braces', 'invalid_placeholder'])
            .describe('missing_variable (no value nor fallback: a 400 at send), undeclared_variable, unknown_variable, unbalanced_braces or invalid_placeholder'),
          message: z.string().describe('the problem, naming the variable and the field'),
          variable: z.string().optional().describe('the variable concerned, where it applies'),
          field: z.enum(['subject', 'html', 'text']).optional().describe('where the problem is (first use, for a variable), where it applies'),
        }),
      )
      .describe('problems with the template or the values (never errors; at most 50 per code)'),
  }),
);
