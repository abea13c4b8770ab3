/**
 * Delivery outcomes and how they move an email. Status only moves forward (a late Send never undoes a
 * Delivery); `last_event` follows the most advanced event seen. Pure: the store turns these ranks into
 * conditional writes.
 */
import type { EmailStatus } from './email';

export type DeliveryEvent = 'sent' | 'delivery_delayed' | 'delivered' | 'bounced' | 'failed' | 'complained';

export interface DeliveryOutcome {
  event: DeliveryEvent;
  /** New status, when the event changes it. */
  status?: EmailStatus;
  at: string;
  /** Timestamps and details recorded with the event (first value wins). */
  fields: Partial<
    Record<'sent_at' | 'delivered_at' | 'bounced_at' | 'bounce_reason' | 'bounce_type' | 'bounce_category' | 'provider_message_id', string>
  >;
}

export const STATUS_RANK: Record<EmailStatus, number> = {
  queued: 0,
  scheduled: 0,
  sent: 1,
  delivered: 2,
  bounced: 3,
  failed: 3,
  cancelled: 9,
};

/** Engagement (docs/tracking.md): recorded on the email's last_event, never on its status. */
export type EngagementEvent = 'opened' | 'clicked';

/**
 * Ranks are stored on each email (`last_event_rank`), so existing values never change: engagement sits
 * between delivered and bounced (a bounce after delivery, a failure or a complaint still shows as the
 * last event; a click shows over an open).
 */
export const EVENT_RANK: Record<DeliveryEvent | EngagementEvent | 'queued', number> = {
  queued: 0,
  sent: 1,
  delivery_delayed: 2,
  delivered: 3,
  opened: 3.25,
  clicked: 3.5,
  bounced: 4,
  failed: 4,
  complained: 5,
};

/** Statuses an email may move from to reach `target`. */
export function statusesBefore(target: EmailStatus): EmailStatus[] {
  const rank = STATUS_RANK[target];
  return (Object.keys(STATUS_RANK) as EmailStatus[]).filter((status) => STATUS_RANK[status] < rank && status !== 'scheduled');
}
