/**
 * A received (inbound) email: what the inbound worker recorded about one message for one receiving
 * account. The record holds the envelope, the parsed header fields, the authentication verdicts and the
 * attachments' metadata; the bodies, the full header list and the attachments' bytes are objects in the
 * mail bucket under `<objects_prefix>inbound/<inb id>/` (./content-keys.ts: the account's retention class),
 * beside the account's copy of the raw message (`raw_key`). Pure.
 */
import * as z from 'zod';
import { modelSchema } from '../model-schema';
import { authenticationSchema, type Authentication } from './authentication';
import type { SpamStatus } from './spam';

export interface ReceivedAttachment {
  /** `att_<n>`, n from 1 in the message's order. */
  id: string;
  filename: string | null;
  content_type: string;
  /** Decoded bytes. */
  size: number;
  content_id: string | null;
  content_disposition: 'attachment' | 'inline';
}

/** The message's own header fields, as the parser reads them and the record keeps them. */
export interface ReceivedHeaderFields {
  /** Addresses as the sender wrote them (`Name <addr>` or `addr`). */
  from: string;
  to: string[];
  cc: string[];
  reply_to: string[];
  subject: string;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  /** The Date header (ISO), null when absent or unreadable. */
  date: string | null;
}

export interface ReceivedEmail extends ReceivedHeaderFields {
  id: string;
  account_id: string;
  domain_id: string;
  tenant_id: string | null;
  /** The owning tenant's external_id (null: account-wide), as the API and webhooks name tenants. */
  tenant: string | null;
  status: 'received';
  /** The envelope: MAIL FROM ('' for a bounce) and this account's recipients. */
  mail_from: string;
  rcpt_to: string[];
  /** The part after `+` in the first recipient that has one (`support+1234@` -> `1234`), else null. */
  plus_address: string | null;
  spam_status: SpamStatus;
  authentication: Authentication;
  /** Loop protection: the Auto-Submitted value, or what other signs say (./auto-submitted.ts); null for a person's mail. */
  auto_submitted: string | null;
  /** The text body without quoted replies and signature (./reply-text.ts), at most STRIPPED_TEXT_MAX characters. */
  stripped_text: string | null;
  attachment_count: number;
  /** Metadata of at most MAX_STORED_ATTACHMENTS attachments (all are in the raw message). */
  attachments: ReceivedAttachment[];
  /** Size of the raw message in bytes. */
  size: number;
  /** Set when the message could not be parsed whole: what was stored is what could be read. */
  parse_error: string | null;
  /** Set when lists or values were cut to fit the record (./record-bounds.ts; everything is in the raw message and the headers). */
  truncated: boolean;
  tls: boolean;
  remote_address: string;
  helo: string;
  raw_key: string;
  /** Size in bytes of the html and text bodies stored beside the record; null when the message has none. */
  html_bytes: number | null;
  text_bytes: number | null;
  /**
   * True: the html and text bodies and the header list are one object (`inboundKeys.content`: one S3 PUT a
   * message instead of three, bodies up to CONTENT_OBJECT_MAX_BODY_BYTES). Absent: each is its own object
   * (records of before 2026-11-25, and larger bodies, which the API may answer as links).
   */
  content_object?: boolean;
  /**
   * The retention class prefix its objects were written under (`retention/<days>d/`: ./content-keys.ts,
   * docs/retention.md); absent on records written before, whose objects are at `inbound/<id>/`.
   */
  objects_prefix?: string;
  /**
   * The MX listener's copy of the raw message (`inbound/raw/<id>.eml`, shared by every receiving account,
   * expired by its own rule) when `raw_key` is the account's copy: an erasure deletes both.
   */
  shared_raw_key?: string;
  /**
   * False when the receiving domain keeps no content (`inbound_store_content: false`, docs/redaction.md): the
   * record is metadata only and the raw message was deleted once recorded. Absent: content kept.
   */
  content_kept?: false;
  received_at: string;
  created_at: string;
}

const receivedAttachmentSchema = modelSchema<ReceivedAttachment>()(
  z.object({
    id: z.string(),
    filename: z.string().nullable(),
    content_type: z.string(),
    size: z.number(),
    content_id: z.string().nullable(),
    content_disposition: z.enum(['attachment', 'inline']),
  }),
);

/**
 * The stored record without the store's search copies (shared/adapters/store/received-emails.ts decodes
 * with it), checked against the interface.
 */
export const receivedEmailSchema = modelSchema<ReceivedEmail>()(
  z.object({
    id: z.string(),
    account_id: z.string(),
    domain_id: z.string(),
    tenant_id: z.string().nullable(),
    tenant: z.string().nullable(),
    status: z.literal('received'),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    reply_to: z.array(z.string()),
    subject: z.string(),
    message_id: z.string().nullable(),
    in_reply_to: z.string().nullable(),
    references: z.array(z.string()),
    date: z.string().nullable(),
    mail_from: z.string(),
    rcpt_to: z.array(z.string()),
    plus_address: z.string().nullable(),
    spam_status: z.enum(['not_spam', 'spam']),
    authentication: authenticationSchema,
    auto_submitted: z.string().nullable(),
    stripped_text: z.string().nullable(),
    attachment_count: z.number(),
    attachments: z.array(receivedAttachmentSchema),
    size: z.number(),
    parse_error: z.string().nullable(),
    truncated: z.boolean(),
    tls: z.boolean(),
    remote_address: z.string(),
    helo: z.string(),
    raw_key: z.string(),
    html_bytes: z.number().nullable(),
    text_bytes: z.number().nullable(),
    content_object: z.boolean().optional(),
    objects_prefix: z.string().optional(),
    shared_raw_key: z.string().optional(),
    content_kept: z.literal(false).optional(),
    received_at: z.string(),
    created_at: z.string(),
  }),
);

/** Most attachments kept as separate objects and listed (a message with more keeps them in its raw message). */
export const MAX_STORED_ATTACHMENTS = 100;
/** Most entries kept in each address or reference list of the record. */
export const MAX_LIST_ENTRIES = 100;
/** Longest subject kept (characters). */
export const MAX_SUBJECT_CHARS = 2000;
/** Longest reply-stripped text kept in the record and the webhook (characters). */
export const STRIPPED_TEXT_MAX = 16_000;

/** The email.received webhook payload (spec, Events), plus what receivers rely on (docs/inbound.md). */
export function receivedEventData(email: ReceivedEmail) {
  return {
    email_id: email.id,
    to: email.to,
    from: email.from,
    subject: email.subject,
    status: email.status,
    rcpt_to: email.rcpt_to,
    cc: email.cc,
    message_id: email.message_id,
    in_reply_to: email.in_reply_to,
    references: email.references,
    spam_status: email.spam_status,
    attachment_count: email.attachment_count,
    attachments: email.attachments.map(({ filename, content_type, size }) => ({ filename, content_type, size })),
    received_at: email.received_at,
    // Beyond the spec's list:
    mail_from: email.mail_from,
    reply_to: email.reply_to,
    plus_address: email.plus_address,
    auto_submitted: email.auto_submitted,
    stripped_text: email.stripped_text,
    authentication: email.authentication,
    tenant: email.tenant,
  };
}

/** A list item of GET /received-emails: everything but bodies, headers and download links. */
export function toPublicReceivedEmail(email: ReceivedEmail) {
  return {
    object: 'received_email' as const,
    id: email.id,
    status: email.status,
    from: email.from,
    to: email.to,
    cc: email.cc,
    reply_to: email.reply_to,
    subject: email.subject,
    message_id: email.message_id,
    in_reply_to: email.in_reply_to,
    references: email.references,
    date: email.date,
    mail_from: email.mail_from,
    rcpt_to: email.rcpt_to,
    plus_address: email.plus_address,
    spam_status: email.spam_status,
    authentication: email.authentication,
    auto_submitted: email.auto_submitted,
    stripped_text: email.stripped_text,
    attachment_count: email.attachment_count,
    attachments: email.attachments,
    size: email.size,
    tls: email.tls,
    parse_error: email.parse_error,
    truncated: email.truncated,
    tenant: email.tenant,
    received_at: email.received_at,
    content: receivedContentState(email),
  };
}

/** `not_kept` for mail of a domain that keeps no content (docs/redaction.md): no subject, bodies, headers, attachments nor raw message. */
export const receivedContentState = (email: Pick<ReceivedEmail, 'content_kept'>): 'kept' | 'not_kept' =>
  email.content_kept === false ? 'not_kept' : 'kept';
