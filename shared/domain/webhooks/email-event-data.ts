/** The `data` of email.* events, built from the email record. Pure. */
import type { Email } from '../emails/email';
import type { EventType } from './event-types';
import { emailEventId, type ServiceEvent } from './event';

/** Status reported by each email event (the email's status after it). */
const STATUS_OF: Partial<Record<EventType, string>> = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.bounced': 'bounced',
  'email.failed': 'failed',
  'email.scheduled': 'scheduled',
  'email.suppressed': 'failed',
};

export function emailEventData(email: Email, type: EventType, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email_id: email.id,
    status: STATUS_OF[type] ?? email.status,
    from: email.from,
    to: email.to,
    ...(email.cc.length ? { cc: email.cc } : {}),
    subject: email.subject,
    tags: email.tags,
    created_at: email.created_at,
    ...(email.tenant ? { tenant: email.tenant } : {}),
    ...(type === 'email.sent' && email.sent_at ? { sent_at: email.sent_at } : {}),
    // The Message-ID recipients see (SES's own), to match replies; null when it is not known.
    ...(type === 'email.sent' ? { message_id: email.message_id ?? null } : {}),
    ...(type === 'email.delivered' && email.delivered_at ? { delivered_at: email.delivered_at } : {}),
    ...(type === 'email.bounced' || type === 'email.failed'
      ? {
          bounce_reason: email.bounce_reason,
          bounce_type: email.bounce_type,
          bounce_category: email.bounce_category ?? null,
          ...(email.bounced_at ? { bounced_at: email.bounced_at } : {}),
        }
      : {}),
    ...(type === 'email.scheduled' ? { scheduled_at: email.scheduled_at } : {}),
    ...extra,
  };
}

export function emailEvent(
  email: Email,
  type: EventType,
  at: string,
  options: { occurrence?: string; extra?: Record<string, unknown> } = {},
): ServiceEvent {
  return {
    id: emailEventId(email.created_at, email.id, type, options.occurrence),
    type,
    account_id: email.account_id,
    tenant: email.tenant,
    created_at: at,
    data: emailEventData(email, type, options.extra),
  };
}
