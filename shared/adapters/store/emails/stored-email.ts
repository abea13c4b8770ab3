/**
 * The email item as the store keeps it, and how it reads back as a model (StoredEmail): what every step
 * of an email's life (./accept.ts to ./outcomes.ts) writes and decodes.
 */
import * as z from 'zod';
import { emailSchema, type Email, type EmailBody } from '#shared/domain/emails/email';
import { decodeItem } from '../decode';
import { reservedCounterSchema, type ReservedCounter } from '../usage';

/** Where the body lives: inline in the item, or in the blob store under `key` when large. */
export type StoredBody = { inline: EmailBody } | { blobKey: string };

/**
 * A raw MIME message (the SMTP relay): the send worker delivers it as written instead of composing one from
 * the body (which is then empty). Kept in the item when small (`inline`, persisted as `mime_inline`, binary; up to
 * INLINE_MIME_LIMIT, shared/usecases/send/content-keys.ts), else in the blob store under `blobKey` (`mime_blob_key`).
 */
export type StoredMime = { blobKey: string } | { inline: Buffer };

/** What the service keeps beside the public record. */
export interface EmailInternals {
  /** Bumped by every reschedule; a schedule firing with another version is stale and ignored. */
  schedule_version?: number;
  /** The usage reserved at acceptance, released when a scheduled email is cancelled. */
  usage_reserved?: { entries: ReservedCounter[]; count: number };
  /** Epoch ms until which a send attempt holds the email (absent: not claimed, or released). */
  send_lease_until?: number;
  /** A refused send: the details of its email.suppressed event (published by the outbox relay). */
  suppressed_event?: Record<string, unknown>;
}

export interface StoredEmail {
  email: Email;
  body: StoredBody;
  /** Set for a raw MIME message (SMTP relay): delivered instead of composing `body`. */
  mime?: StoredMime;
  internals: EmailInternals;
}

/** Statuses that end an email's life: it leaves the due index. */
export const FINAL_STATUSES = new Set(['delivered', 'bounced', 'failed', 'cancelled']);

/**
 * Attributes that start empty and are filled by events with if_not_exists, so they are absent (not NULL)
 * until set; they read as null (emailSchema's defaults).
 */
export const LATE_FIELDS = [
  'bounce_reason',
  'bounce_type',
  'bounce_category',
  'scheduled_at',
  'cancelled_at',
  'sent_at',
  'delivered_at',
  'bounced_at',
  'tenant',
  'tenant_id',
  'provider_message_id',
] as const;

/**
 * The email item as the store keeps it: the email, its body (inline, or the blob's key), the raw
 * message (SMTP relay: inline, or the blob's key) and the internals. Dropped: the send bookkeeping only conditions and the
 * outbox read (`last_event_rank`, `send_attempts`, `usage_deferred`, the SES recipient tallies
 * `ses_reached` / `ses_refused` / `ses_refusal`), and `updated_at`, which reschedules, cancellations and
 * the reconciler write but the Email model does not have.
 */
const emailItemSchema = emailSchema.extend({
  body: z.object({ html: z.string().optional(), text: z.string().optional() }).optional(),
  body_blob_key: z.string().optional(),
  mime_blob_key: z.string().optional(),
  mime_inline: z.instanceof(Uint8Array).optional(),
  schedule_version: z.number().optional(),
  usage_reserved: z.object({ entries: z.array(reservedCounterSchema), count: z.number() }).optional(),
  send_lease_until: z.number().optional(),
  suppressed_event: z.record(z.string(), z.unknown()).optional(),
});

export function toStoredEmail(item: Record<string, unknown>): StoredEmail {
  const {
    body,
    body_blob_key,
    mime_blob_key,
    mime_inline,
    schedule_version,
    usage_reserved,
    send_lease_until,
    suppressed_event,
    ...email
  } = decodeItem(emailItemSchema, item, 'Email');
  return {
    email,
    body: body_blob_key ? { blobKey: body_blob_key } : { inline: body ?? {} },
    ...(mime_blob_key !== undefined ? { mime: { blobKey: mime_blob_key } } : {}),
    ...(mime_inline !== undefined
      ? { mime: { inline: Buffer.from(mime_inline.buffer, mime_inline.byteOffset, mime_inline.byteLength) } }
      : {}),
    internals: {
      schedule_version,
      usage_reserved,
      ...(send_lease_until !== undefined ? { send_lease_until } : {}),
      ...(suppressed_event ? { suppressed_event } : {}),
    },
  };
}
