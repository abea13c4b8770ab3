/** Response schemas of the emails and attachments groups. */
import * as z from 'zod';
import { EMAIL_STATUSES, type toPublicEmail } from '../../domain/emails/email';
import type { toPublicAttachmentUpload } from '../../domain/emails/attachment-upload';
import { EVENT_TYPES } from '../../domain/webhooks/event-types';
import type { BatchItemResult } from '../../usecases/send-batch';
import type { SendResult } from '../../usecases/send-email';
import type { sendTestEvent } from '../../usecases/test-event';
import { describing, idOf, nullableTimestamp, tagSchema, timestamp } from './common';

export const emailAttachmentSchema = z.strictObject({
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int().describe('bytes, decoded'),
  content_id: z.string().nullable().describe('set for inline parts (referenced as cid:<content_id>)'),
});

/** The Email record (spec, "Email record"): GET /emails/{id}, the items of GET /emails. */
export const emailSchema = describing<ReturnType<typeof toPublicEmail>>()(
  z.strictObject({
    object: z.literal('email'),
    id: idOf('msg'),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    reply_to: z.array(z.string()),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES),
    last_event: z
      .string()
      .describe('queued, scheduled, sent, delivery_delayed, delivered, bounced, failed, complained, suppressed or cancelled'),
    bounce_reason: z.string().nullable(),
    bounce_type: z.string().nullable().describe('hard, block or undetermined; null unless bounced or failed'),
    tags: z.array(tagSchema),
    attachments: z.array(emailAttachmentSchema).describe('metadata only'),
    scheduled_at: nullableTimestamp,
    cancelled_at: nullableTimestamp,
    sent_at: nullableTimestamp,
    delivered_at: nullableTimestamp,
    bounced_at: nullableTimestamp,
    created_at: timestamp,
    tenant: z.string().nullable().describe("the tenant's external_id for a tenant's email (null once the tenant is deleted)"),
  }),
);

/** POST /emails, POST /emails/{id}/resend. */
export const sendResultSchema = describing<SendResult>()(
  z.strictObject({
    id: idOf('msg'),
    status: z.enum(['sent', 'scheduled']).describe('sent: accepted and queued; scheduled: stored for scheduled_at'),
  }),
);

const batchItemSchema = describing<BatchItemResult>()(
  z.strictObject({
    index: z.number().int(),
    id: idOf('msg').nullable().describe('null for a failed item (the kept email of a suppressed send has one)'),
    status: z.enum(['sent', 'scheduled', 'failed']),
    error: z
      .strictObject({ message: z.string(), code: z.string(), details: z.record(z.string(), z.unknown()).optional() })
      .optional()
      .describe('what POST /emails would have answered for this item'),
  }),
);

/** POST /emails/batch: index-aligned results. */
export const batchResultSchema = z.strictObject({ data: z.array(batchItemSchema) });

/** PATCH /emails/{id}. */
export const emailEnvelopeSchema = z.strictObject({ email: emailSchema });

/** POST /emails/{id}/cancel (the resend SDK's emails.cancel). */
export const cancelResultSchema = z.strictObject({ object: z.literal('email'), id: idOf('msg'), email: emailSchema });

/** POST /emails/test. */
export const testEventResultSchema = describing<Awaited<ReturnType<typeof sendTestEvent>>>()(
  z.strictObject({
    object: z.literal('test_event'),
    id: idOf('evt'),
    queued: z.boolean().describe('false when deliver was false'),
    payload: z
      .strictObject({ type: z.enum(EVENT_TYPES), created_at: timestamp, data: z.record(z.string(), z.unknown()) })
      .describe('the webhook payload, exactly as endpoints receive it'),
  }),
);

/** An attachment upload (POST /attachments, GET /attachments/{id}). */
export const attachmentUploadSchema = describing<ReturnType<typeof toPublicAttachmentUpload>>()(
  z.strictObject({
    id: z.string().regex(/^att_[0-9A-HJKMNP-TV-Z]{26}$/),
    object: z.literal('attachment'),
    filename: z.string(),
    content_type: z.string(),
    status: z.enum(['pending_upload', 'uploaded', 'too_large']),
    size: z.number().int().nullable().describe('bytes, once the upload is seen; null before'),
    created_at: timestamp,
    expires_at: timestamp.describe('reference it in a send before this (24 hours)'),
  }),
);

export const attachmentEnvelopeSchema = z.strictObject({ attachment: attachmentUploadSchema });

export const attachmentCreatedSchema = z.strictObject({
  attachment: attachmentUploadSchema,
  upload: z
    .strictObject({
      url: z.string().describe('presigned S3 URL: PUT the bytes here'),
      method: z.literal('PUT'),
      headers: z.record(z.string(), z.string()).describe('send these headers with the PUT'),
      expires_at: timestamp.describe('the URL works for 15 minutes'),
    })
    .describe('where to PUT the file'),
});
