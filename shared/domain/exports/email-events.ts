/**
 * The events of one email as an export lists them (docs/exports.md, "events"): what its record says
 * happened and when, the same facts as the dashboard's timeline (accepted, scheduled, cancelled, sent,
 * delivery_delayed, delivered, opened, clicked, bounced, failed, complained). The service keeps an email's
 * outcome on its record (no separate event log), so these are derived from it: one line per event.
 */
import type { Email } from '../emails/email';

export interface ExportedEmailEvent {
  object: 'email_event';
  email_id: string;
  type: string;
  /** When it happened (null when the record does not keep the time: delivery_delayed, complained, a scheduled send's wait). */
  at: string | null;
  detail: string | null;
}

type EventFacts = Pick<
  Email,
  | 'id'
  | 'status'
  | 'last_event'
  | 'created_at'
  | 'scheduled_at'
  | 'cancelled_at'
  | 'sent_at'
  | 'delivered_at'
  | 'bounced_at'
  | 'bounce_type'
  | 'bounce_reason'
  | 'opened_at'
  | 'clicked_at'
>;

export function emailEvents(email: EventFacts): ExportedEmailEvent[] {
  const events: ExportedEmailEvent[] = [];
  const add = (type: string, at: string | null | undefined, detail: string | null = null) =>
    events.push({ object: 'email_event', email_id: email.id, type, at: at ?? null, detail });
  add('accepted', email.created_at);
  if (email.scheduled_at) add('scheduled', null, `for ${email.scheduled_at}`);
  if (email.cancelled_at || email.status === 'cancelled') add('cancelled', email.cancelled_at);
  if (email.sent_at) add('sent', email.sent_at);
  if (email.last_event === 'delivery_delayed') add('delivery_delayed', null);
  if (email.delivered_at) add('delivered', email.delivered_at);
  if (email.opened_at) add('opened', email.opened_at);
  if (email.clicked_at) add('clicked', email.clicked_at);
  if (email.status === 'bounced')
    add('bounced', email.bounced_at, [email.bounce_type, email.bounce_reason].filter(Boolean).join(': ') || null);
  if (email.status === 'failed') add('failed', email.bounced_at, email.bounce_reason);
  if (email.last_event === 'complained') add('complained', null);
  return events;
}
