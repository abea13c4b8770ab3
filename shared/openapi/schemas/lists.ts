/** Response schemas of webhooks, suppressions, received email and templates. */
import * as z from 'zod';
import { OPT_OUT_CATEGORIES, SUPPRESSION_REASONS } from '../../domain/suppressions/reasons';
import type { toPublicCategoryOptOut, toPublicSuppression } from '../../domain/suppressions/model';
import type { toPublicDelivery } from '../../domain/webhooks/delivery';
import { DELIVERY_STATUSES } from '../../domain/webhooks/delivery';
import type { toPublicWebhook } from '../../domain/webhooks/endpoint';
import { EVENT_TYPES } from '../../domain/webhooks/event-types';
import type { toPublicReceivedEmail } from '../../domain/inbound/received-email';
import type { getReceivedEmail } from '../../usecases/inbound/received-emails';
import type { toPublicTemplate, toPublicTemplateSummary } from '../../domain/templates/template';
import type { TemplatePreview } from '../../usecases/templates';
import { CATEGORIES } from '../../domain/emails/send-request';
import { describing, idOf, nullableTimestamp, timestamp } from './common';

// ---------------------------------------------------------------------------------------------------
// Webhooks

export const webhookSchema = describing<ReturnType<typeof toPublicWebhook>>()(
  z.strictObject({
    object: z.literal('webhook'),
    id: idOf('wh'),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean(),
    tenants: z.array(z.string()).optional().describe('only present when the endpoint is filtered to tenants'),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const webhookCreatedSchema = z.strictObject({
  webhook: webhookSchema,
  secret: z.string().regex(/^whsec_/).describe('the signing secret: shown only here'),
});

export const webhookEnvelopeSchema = z.strictObject({ webhook: webhookSchema });

export const deliverySchema = describing<ReturnType<typeof toPublicDelivery>>()(
  z.strictObject({
    object: z.literal('webhook_delivery'),
    id: idOf('whd'),
    webhook_id: idOf('wh'),
    event_id: idOf('evt'),
    event_type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.array(
      z.strictObject({
        attempt: z.number().int().describe('1 for the first try'),
        at: timestamp,
        status_code: z.number().int().nullable(),
        duration_ms: z.number(),
        error: z.string().nullable().describe('connection error, timeout or refusal, when there was no HTTP answer'),
        response_excerpt: z.string().nullable().describe('the first 500 characters of the response body'),
      }),
    ),
    next_attempt_at: nullableTimestamp,
    payload: z.unknown().describe('the exact JSON body sent'),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const deliveryEnvelopeSchema = z.strictObject({ delivery: deliverySchema });

// ---------------------------------------------------------------------------------------------------
// Suppressions

export const suppressionSchema = describing<ReturnType<typeof toPublicSuppression>>()(
  z.strictObject({
    object: z.literal('suppression'),
    id: idOf('sup'),
    email: z.string(),
    scope: z.enum(['account', 'tenant']),
    tenant: z.string().nullable().describe("the list's tenant (external_id); null on the account-wide list"),
    reason: z.enum(SUPPRESSION_REASONS),
    created_at: timestamp,
  }),
);

export const categoryOptOutSchema = describing<ReturnType<typeof toPublicCategoryOptOut>>()(
  z.strictObject({
    object: z.literal('category_opt_out'),
    id: idOf('cop'),
    email: z.string(),
    category: z.enum(OPT_OUT_CATEGORIES),
    tenant: z.string().nullable(),
    created_at: timestamp,
  }),
);

/** POST /suppressions: 201 when at least one address was added, 200 when all were already there. */
export const suppressionsAddedSchema = z.union([
  z.strictObject({
    suppressions: z.array(suppressionSchema),
    created: z.array(z.string()).describe('addresses added by this call'),
    existing: z.array(z.string()).describe('addresses that were already on the list'),
  }),
  z.strictObject({ category_opt_outs: z.array(categoryOptOutSchema), created: z.array(z.string()), existing: z.array(z.string()) }),
]);

const page = { has_more: z.boolean(), next_cursor: z.string().nullable() };

/** GET /suppressions: suppressions (with `email`, also that address's category opt-outs), or with `category` the opt-outs. */
export const suppressionListSchema = z.union([
  z.strictObject({ suppressions: z.array(suppressionSchema), category_opt_outs: z.array(categoryOptOutSchema).optional(), ...page }),
  z.strictObject({ category_opt_outs: z.array(categoryOptOutSchema), ...page }),
]);

export const suppressionRemovedSchema = z.union([
  z.strictObject({ ok: z.literal(true), suppression: suppressionSchema }),
  z.strictObject({ ok: z.literal(true), category_opt_out: categoryOptOutSchema }),
]);

// ---------------------------------------------------------------------------------------------------
// Received email

const authResult = z.enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);

const receivedAttachment = z.strictObject({
  id: z.string().regex(/^att_\d+$/),
  filename: z.string().nullable(),
  content_type: z.string(),
  size: z.number().int(),
  content_id: z.string().nullable(),
  content_disposition: z.enum(['attachment', 'inline']),
});

const receivedFields = {
  object: z.literal('received_email'),
  id: idOf('inb'),
  status: z.literal('received'),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  reply_to: z.array(z.string()),
  subject: z.string(),
  message_id: z.string().nullable(),
  in_reply_to: z.string().nullable(),
  references: z.array(z.string()),
  date: nullableTimestamp.describe('the Date header'),
  mail_from: z.string().describe("the envelope sender ('' for a bounce)"),
  rcpt_to: z.array(z.string()).describe("the envelope's recipients of this account"),
  plus_address: z.string().nullable(),
  spam_status: z.enum(['not_spam', 'spam']),
  authentication: z.strictObject({
    spf: z.strictObject({ result: authResult, domain: z.string().nullable() }),
    dkim: z.array(z.strictObject({ result: authResult, domain: z.string().nullable(), selector: z.string().nullable(), aligned: z.boolean() })),
    dmarc: z.strictObject({ result: authResult, domain: z.string().nullable(), policy: z.enum(['none', 'quarantine', 'reject']).nullable() }),
    spam_reasons: z.array(z.string()),
  }),
  auto_submitted: z.string().nullable(),
  stripped_text: z.string().nullable().describe('the text without quoted replies and signature'),
  attachment_count: z.number().int(),
  attachments: z.array(receivedAttachment),
  size: z.number().int().describe('bytes of the raw message'),
  tls: z.boolean(),
  parse_error: z.string().nullable(),
  truncated: z.boolean(),
  tenant: z.string().nullable(),
  received_at: timestamp,
};

export const receivedEmailSummarySchema = describing<ReturnType<typeof toPublicReceivedEmail>>()(z.strictObject(receivedFields));

export const receivedEmailSchema = describing<Awaited<ReturnType<typeof getReceivedEmail>>>()(
  z.strictObject({
    ...receivedFields,
    html: z.string().nullable().describe('inline when the bodies are small enough; else null and html_url is set'),
    text: z.string().nullable(),
    html_url: z.string().nullable().describe('a presigned GET URL (1 hour) for a large body'),
    text_url: z.string().nullable(),
    headers: z.array(z.strictObject({ name: z.string(), value: z.string() })),
    attachments: z.array(
      receivedAttachment.extend({
        content: z.string().nullable().describe('the bytes in base64 when small enough; else null and download_url is set'),
        download_url: z.string().nullable(),
        expires_at: nullableTimestamp,
      }),
    ),
    raw: z.strictObject({ download_url: z.string(), expires_at: timestamp, size: z.number().int() }).describe('the raw message (RFC 5322)'),
  }),
);

export const receivedEmailEnvelopeSchema = z.strictObject({ received_email: receivedEmailSchema });

// ---------------------------------------------------------------------------------------------------
// Templates

const templateFields = {
  object: z.literal('template'),
  id: idOf('tpl'),
  alias: z.string(),
  name: z.string(),
  subject: z.string(),
  from: z.string().nullable(),
  reply_to: z.array(z.string()),
  category: z.enum(CATEGORIES),
  unsubscribe_enabled: z.boolean(),
  variables: z.array(z.strictObject({ key: z.string(), type: z.enum(['string', 'number']), fallback_value: z.union([z.string(), z.number(), z.null()]) })),
  status: z.enum(['draft', 'published']).describe('published once a version was published (the draft may have changed since)'),
  published_at: nullableTimestamp,
  has_unpublished_changes: z.boolean(),
  published_version: z.number().int().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const templateSchema = describing<ReturnType<typeof toPublicTemplate>>()(
  z.strictObject({ ...templateFields, html: z.string().nullable(), text: z.string().nullable() }),
);
export const templateSummarySchema = describing<ReturnType<typeof toPublicTemplateSummary>>()(z.strictObject(templateFields));
export const templateEnvelopeSchema = z.strictObject({ template: templateSchema });

export const templatePreviewSchema = describing<TemplatePreview>()(
  z.strictObject({
    subject: z.string(),
    html: z.string().nullable(),
    text: z.string().nullable(),
    warnings: z.array(
      z.strictObject({
        code: z.enum(['missing_variable', 'undeclared_variable', 'unknown_variable', 'unbalanced_braces', 'invalid_placeholder']),
        message: z.string(),
        variable: z.string().optional(),
        field: z.enum(['subject', 'html', 'text']).optional(),
      }),
    ),
  }),
);
