/** Response schemas of the emails group. */
import * as z from 'zod';
import { EMAIL_STATUSES, type toPublicEmail } from '#shared/domain/emails/email';
import { BOUNCE_CATEGORIES } from '#shared/domain/bounces/bounce-category';
import { EVENT_TYPES } from '#shared/domain/webhooks/event-types';
import type { BatchItemResult } from '#shared/usecases/send/send-batch';
import type { SendResult } from '#shared/usecases/send';
import type { sendTestEvent } from '#shared/usecases/webhooks/test-event';
import { describing, idOf, nullableTimestamp, tagSchema, timestamp } from '#shared/doors/openapi/common-schemas';

export const emailAttachmentSchema = z.strictObject({
  filename: z.string().describe('the file name, as sent'),
  content_type: z.string().describe('its MIME type (`type/subtype`, parameters kept)'),
  size: z.number().int().describe('bytes, decoded'),
  content_id: z.string().nullable().describe('set for inline parts (referenced as cid:<content_id>)'),
});

/** The Email record (spec, "Email record"): GET /emails/{id}, the items of GET /emails. */
export const emailSchema = describing<ReturnType<typeof toPublicEmail>>()(
  z.strictObject({
    object: z.literal('email').describe('always `email`'),
    id: idOf('msg').describe("the email's id (msg_ and a ULID)"),
    from: z.string().describe('the sender, `address` or `Name <address>`'),
    to: z.array(z.string()).describe('the To recipients'),
    cc: z.array(z.string()).describe('the Cc recipients ([] for none)'),
    bcc: z.array(z.string()).describe('the Bcc recipients ([] for none)'),
    reply_to: z.array(z.string()).describe('the Reply-To addresses ([] for none)'),
    subject: z.string().describe('the subject as sent (rendered, for a template send)'),
    status: z
      .enum(EMAIL_STATUSES)
      .describe('queued (accepted, not yet handed to SES), scheduled, sent, delivered, bounced, failed or cancelled; moves forward only'),
    last_event: z
      .string()
      .describe('queued, scheduled, sent, delivery_delayed, delivered, bounced, failed, complained, suppressed or cancelled'),
    bounce_reason: z
      .string()
      .nullable()
      .describe("the provider's reason for a bounce or failure, or why a scheduled email was not sent; null otherwise"),
    bounce_type: z
      .string()
      .nullable()
      .describe("hard, soft, block, undetermined or not_sent (on SES's suppression list); null unless bounced or failed"),
    bounce_category: z
      .enum(BOUNCE_CATEGORIES)
      .nullable()
      .describe(
        "the bounce's category (docs/deliverability.md, \"Bounce categories\"), from SES's bounce type and the receiving server's status code and reply; null unless bounced, or failed by a bounce",
      ),
    tags: z.array(tagSchema).describe('the tags sent with the email, as `{name, value}` (up to 10)'),
    attachments: z.array(emailAttachmentSchema).describe('metadata only'),
    scheduled_at: nullableTimestamp.describe('when a scheduled email is (or was) due to go out (ISO 8601); null for an immediate send'),
    cancelled_at: nullableTimestamp.describe('when the scheduled email was cancelled (ISO 8601); null unless cancelled'),
    sent_at: nullableTimestamp.describe('when SES accepted the message (ISO 8601); null until sent'),
    message_id: z
      .string()
      .nullable()
      .describe(
        "the Message-ID field recipients see, angle brackets included: SES replaces the message's own with `<id@email.amazonses.com>` (`<id@<region>.amazonses.com>` outside us-east-1); replies carry it in In-Reply-To and References. Null until sent",
      ),
    delivered_at: nullableTimestamp.describe("when it reached the recipient's mail provider (ISO 8601); null until delivered"),
    bounced_at: nullableTimestamp.describe('when it bounced or failed delivery (ISO 8601); null otherwise'),
    created_at: timestamp.describe('when the send was accepted (ISO 8601)'),
    tenant: z.string().nullable().describe("the tenant's external_id for a tenant's email (null once the tenant is deleted)"),
    track_opens: z
      .boolean()
      .nullable()
      .describe(
        "the send's own open tracking (`track_opens`, or its template's): true or false; null: the sending domain's `open_tracking` decides",
      ),
    track_clicks: z
      .boolean()
      .nullable()
      .describe(
        "the send's own click tracking (`track_clicks`, or its template's): true or false; null: the sending domain's `click_tracking` decides",
      ),
    content: z
      .enum(['kept', 'until_sent', 'not_kept'])
      .describe(
        'content redaction (docs/redaction.md): `kept`; `until_sent` for an email sent with `store_content: false` not yet accepted by SES (its content is dropped then); `not_kept` once dropped: no subject, bodies nor attachment bytes, only the metadata',
      ),
  }),
);

/** POST /emails, POST /emails/{id}/resend. */
export const sendResultSchema = describing<SendResult>()(
  z.strictObject({
    id: idOf('msg').describe("the new email's id (msg_...): GET /emails/{id} reads it"),
    status: z.enum(['sent', 'scheduled']).describe('sent: accepted and queued; scheduled: stored for scheduled_at'),
  }),
);

const batchItemSchema = describing<BatchItemResult>()(
  z.strictObject({
    index: z.number().int().describe('the position of the item in the request (from 0)'),
    id: idOf('msg').nullable().describe('null for a failed item (the kept email of a suppressed send has one)'),
    status: z.enum(['sent', 'scheduled', 'failed']).describe('sent or scheduled as for POST /emails; failed: refused, see error'),
    error: z
      .strictObject({
        message: z.string().describe('what went wrong and what to do'),
        code: z.string().describe('the error code POST /emails would have answered (e.g. validation_error, domain_not_verified)'),
        details: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('structured facts, as in the error envelope (e.g. `fields`, `suppressed`)'),
      })
      .optional()
      .describe('what POST /emails would have answered for this item'),
  }),
);

/** POST /emails/batch: index-aligned results. */
export const batchResultSchema = z.strictObject({ data: z.array(batchItemSchema).describe('one result per item, in request order') });

/** PATCH /emails/{id}. */
export const emailEnvelopeSchema = z.strictObject({ email: emailSchema.describe('the email record') });

/** POST /emails/{id}/cancel (the resend SDK's emails.cancel). */
export const cancelResultSchema = z.strictObject({
  object: z.literal('email').describe('always `email`'),
  id: idOf('msg').describe("the cancelled email's id (msg_...)"),
  email: emailSchema.describe('the email record, now cancelled'),
});

/** POST /emails/test. */
export const testEventResultSchema = describing<Awaited<ReturnType<typeof sendTestEvent>>>()(
  z.strictObject({
    object: z.literal('test_event').describe('always `test_event`'),
    id: idOf('evt').describe("the event's id (evt_...): the webhook-id header of its deliveries"),
    queued: z.boolean().describe('false when deliver was false'),
    payload: z
      .strictObject({
        type: z.enum(EVENT_TYPES).describe('the event type'),
        created_at: timestamp.describe('when the event was built (ISO 8601)'),
        data: z.record(z.string(), z.unknown()).describe("the event's data: from the email named by email_id, else an example"),
      })
      .describe('the webhook payload, exactly as endpoints receive it'),
  }),
);
