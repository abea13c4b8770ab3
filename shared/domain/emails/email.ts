/** The email record and its statuses. */
import * as z from 'zod';
import { CATEGORIES } from '../mail/category';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../bounces/bounce-category';
import { modelSchema } from '../model-schema';
import { attachmentRefSchema, toPublicAttachment, type AttachmentRef } from './attachments';

export const EMAIL_STATUSES = ['queued', 'scheduled', 'sent', 'delivered', 'bounced', 'failed', 'cancelled'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** What the service keeps about one send (the stored item, minus bodies). */
export interface Email {
  id: string;
  account_id: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  status: EmailStatus;
  last_event: string;
  bounce_reason: string | null;
  bounce_type: string | null;
  /** The bounce's category (shared/domain/bounces/bounce-category.ts; docs/deliverability.md); null unless bounced or failed by a bounce (absent on emails built before it was kept). */
  bounce_category?: BounceCategory | null;
  tags: { name: string; value: string }[];
  headers: Record<string, string>;
  scheduled_at: string | null;
  cancelled_at: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  bounced_at: string | null;
  created_at: string;
  /** The tenant's external_id as it was at acceptance (shown as `tenant`; null at read time once the tenant is deleted). */
  tenant: string | null;
  /** The tenant's id (internal): visibility for tenant-limited keys, its suppression list, its index and stats. */
  tenant_id?: string | null;
  /** The send's category (internal; absent on emails stored before it was kept): the tenant's stream policy at firing time. */
  category?: 'transactional' | 'product' | 'newsletter';
  provider_message_id: string | null;
  /** The Message-ID field recipients see (SES's own, e.g. `<0100...-000000@email.amazonses.com>`); absent until sent. */
  message_id?: string;
  /** Attachment metadata (bytes are in the blob store); absent on emails stored before attachments existed. */
  attachments?: AttachmentRef[];
  /**
   * Managed unsubscribe (spec rule 10; internal): the send worker adds List-Unsubscribe and
   * List-Unsubscribe-Post and replaces `{{unsubscribe_url}}` with a signed link for the first `to` address.
   */
  unsubscribe?: boolean;
  /**
   * Open and click tracking of this email (docs/tracking.md, "Per message"): the send's `track_opens` /
   * `track_clicks` (or its template's); absent: the sending domain's setting at send time.
   */
  track_opens?: boolean;
  track_clicks?: boolean;
  /** The template the email was rendered from (internal): its alias and the published version used. */
  template?: { alias: string; version: number };
  /** The first open / click counted as human (tracking; absent until then). */
  opened_at?: string;
  clicked_at?: string;
  /**
   * Content redaction (docs/redaction.md; ./redaction.ts): false when the email's body, attachments and
   * subject are not kept after sending; absent when kept. Set at acceptance, from the request and the account.
   */
  store_content?: boolean;
  /** When the send worker dropped the content of a redacted email (absent until SES accepted it). */
  content_dropped_at?: string;
}

/** A late attribute (filled by an event, or an owner the email may not have): absent on the item until set, null in the model. */
const late = z.string().nullable().default(null);

/**
 * The stored email as the model (shared/adapters/store/emails/stored-email.ts decodes its items with it, then takes
 * the body and the internals apart), checked against the interface: the late attributes (the store's
 * LATE_FIELDS) read as null while absent.
 */
export const emailSchema = modelSchema<Email>()(
  z.object({
    id: z.string(),
    account_id: z.string(),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    reply_to: z.array(z.string()),
    subject: z.string(),
    status: z.enum(EMAIL_STATUSES),
    last_event: z.string(),
    bounce_reason: late,
    bounce_type: late,
    bounce_category: z.enum(BOUNCE_CATEGORIES).nullable().optional(),
    tags: z.array(z.object({ name: z.string(), value: z.string() })),
    headers: z.record(z.string(), z.string()),
    scheduled_at: late,
    cancelled_at: late,
    sent_at: late,
    delivered_at: late,
    bounced_at: late,
    created_at: z.string(),
    tenant: late,
    tenant_id: late,
    category: z.enum(CATEGORIES).optional(),
    provider_message_id: late,
    message_id: z.string().optional(),
    attachments: z.array(attachmentRefSchema).optional(),
    unsubscribe: z.boolean().optional(),
    track_opens: z.boolean().optional(),
    track_clicks: z.boolean().optional(),
    template: z.object({ alias: z.string(), version: z.number() }).optional(),
    opened_at: z.string().optional(),
    clicked_at: z.string().optional(),
    store_content: z.boolean().optional(),
    content_dropped_at: z.string().optional(),
  }),
);

export interface EmailBody {
  html?: string;
  text?: string;
}

/** Who may see an email (shared/usecases/access/visibility.ts compares `tenant` with a key's tenant id). */
export function emailOwner(email: Pick<Email, 'account_id' | 'tenant_id'>): { account_id: string; tenant: string | null } {
  return { account_id: email.account_id, tenant: email.tenant_id ?? null };
}

/**
 * The email as shown at read time: `tenant` is null once its tenant is deleted (spec, DELETE
 * /tenants: its emails stay in history with tenant null). `existing` holds the tenant ids still there.
 */
export function withLiveTenant<T extends Pick<Email, 'tenant' | 'tenant_id'>>(email: T, existing: ReadonlySet<string>): T {
  if (email.tenant_id === null || email.tenant_id === undefined || existing.has(email.tenant_id)) return email;
  return { ...email, tenant: null };
}

/**
 * The state of an email's content, as the public record's `content` field says it (docs/redaction.md):
 * `kept`; `until_sent` for a redacted email not yet sent (its content is still there, dropped once SES
 * accepts it); `not_kept` once dropped (no subject, bodies nor attachment bytes).
 */
export type ContentState = 'kept' | 'until_sent' | 'not_kept';

export function contentState(email: Pick<Email, 'store_content' | 'content_dropped_at'>): ContentState {
  if (email.content_dropped_at) return 'not_kept';
  return email.store_content === false ? 'until_sent' : 'kept';
}

/** The public Email record (spec, "Email record"). */
export function toPublicEmail(email: Email) {
  return {
    object: 'email' as const,
    id: email.id,
    from: email.from,
    to: email.to,
    cc: email.cc,
    bcc: email.bcc,
    reply_to: email.reply_to,
    subject: email.subject,
    status: email.status,
    last_event: email.last_event,
    bounce_reason: email.bounce_reason,
    bounce_type: email.bounce_type,
    bounce_category: email.bounce_category ?? null,
    tags: email.tags,
    attachments: (email.attachments ?? []).map(toPublicAttachment),
    scheduled_at: email.scheduled_at,
    cancelled_at: email.cancelled_at,
    sent_at: email.sent_at,
    message_id: email.message_id ?? null,
    delivered_at: email.delivered_at,
    bounced_at: email.bounced_at,
    created_at: email.created_at,
    tenant: email.tenant,
    track_opens: email.track_opens ?? null,
    track_clicks: email.track_clicks ?? null,
    content: contentState(email),
  };
}
