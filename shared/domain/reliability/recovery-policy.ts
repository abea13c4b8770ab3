/**
 * What the reconciler does with an item found past its due time: the recovery policy of each pipeline
 * stage, as pure functions of the item's state, the time and the bounds (docs/reliability.md).
 * Every action is safe to repeat and safe against the item having moved on since it was read: re-driven
 * messages meet the send worker's claim and the delivery worker's attempt check, and the stores' writes
 * are conditional on the status read here.
 */
import type { SendMessage, WebhookDeliveryMessage } from '../messages';
import type { RecoveryBounds } from './bounds';

export interface EmailState {
  id: string;
  status: string;
  created_at: string;
  scheduled_at: string | null;
  sent_at: string | null;
  last_event: string | null;
  bounce_type?: string | null;
  send_lease_until?: number;
  schedule_version?: number;
}

export type EmailRecovery =
  /** Put the email on the send queue again; look again at `dueAt` if it is still in `status`. */
  | { kind: 'redrive'; message: SendMessage; status: string; dueAt: number; stage: 'queued' | 'scheduled' }
  /** A send attempt holds it, or may have reached the provider: look again at `dueAt`. */
  | { kind: 'wait'; status: string; dueAt: number }
  /** Sent without an outcome past the first bound: report `delivery_delayed`, look again at `dueAt`. */
  | { kind: 'delay'; dueAt: number }
  /** Sent without an outcome past the last bound: fail it as undetermined (final). */
  | { kind: 'expire'; reason: string }
  /**
   * Failed as undetermined by an earlier pass that may have died before publishing email.failed (the
   * expiry leaves the email due until its event is out): publish it again (same id), then clear.
   */
  | { kind: 'announce' }
  /** Final already: leave the due index. */
  | { kind: 'clear' };

/** The bounce type of an email the reconciler failed for want of an outcome (only it sets this). */
export const UNDETERMINED = 'undetermined';

const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);

export function recoverEmail(email: EmailState, now: number, bounds: RecoveryBounds): EmailRecovery {
  switch (email.status) {
    case 'queued': {
      const lease = email.send_lease_until;
      if (lease !== undefined && lease + bounds.sendGraceMs > now)
        return { kind: 'wait', status: 'queued', dueAt: lease + bounds.sendGraceMs };
      return {
        kind: 'redrive',
        stage: 'queued',
        message: { email_id: email.id },
        status: 'queued',
        dueAt: now + bounds.queuedRedriveAfterMs,
      };
    }
    case 'scheduled': {
      const at = ms(email.scheduled_at);
      if (!Number.isNaN(at) && at + bounds.scheduledLateAfterMs > now)
        return { kind: 'wait', status: 'scheduled', dueAt: at + bounds.scheduledLateAfterMs };
      return {
        kind: 'redrive',
        stage: 'scheduled',
        message: { email_id: email.id, schedule_version: email.schedule_version ?? 1 },
        status: 'scheduled',
        dueAt: now + bounds.scheduledLateAfterMs,
      };
    }
    case 'sent': {
      const sentAt = Number.isNaN(ms(email.sent_at)) ? now : ms(email.sent_at);
      const finalAt = sentAt + bounds.noOutcomeFinalAfterMs;
      if (now >= finalAt) {
        const hours = Math.round(bounds.noOutcomeFinalAfterMs / 3_600_000);
        return {
          kind: 'expire',
          reason: `No delivery outcome was reported by the provider within ${hours} hours of sending; whether it arrived is unknown.`,
        };
      }
      if (now < sentAt + bounds.noOutcomeDelayedAfterMs)
        return { kind: 'wait', status: 'sent', dueAt: sentAt + bounds.noOutcomeDelayedAfterMs };
      // Reported once (by us or by the provider): wait for the final bound.
      if (email.last_event === 'delivery_delayed') return { kind: 'wait', status: 'sent', dueAt: finalAt };
      return { kind: 'delay', dueAt: finalAt };
    }
    case 'failed':
      return email.bounce_type === UNDETERMINED ? { kind: 'announce' } : { kind: 'clear' };
    default:
      return { kind: 'clear' };
  }
}

export interface DeliveryState {
  webhook_id: string;
  id: string;
  status: string;
  attempts: unknown[];
  next_attempt_at: string | null;
  retry_base?: number;
}

export type DeliveryRecovery =
  | { kind: 'redrive'; message: WebhookDeliveryMessage; dueAt: number }
  | { kind: 'wait'; dueAt: number }
  | { kind: 'clear' };

export function recoverDelivery(delivery: DeliveryState, now: number, bounds: RecoveryBounds): DeliveryRecovery {
  if (delivery.status !== 'pending') return { kind: 'clear' };
  const next = ms(delivery.next_attempt_at);
  if (!Number.isNaN(next) && next + bounds.webhookLateAfterMs > now) return { kind: 'wait', dueAt: next + bounds.webhookLateAfterMs };
  return {
    kind: 'redrive',
    message: {
      webhook_id: delivery.webhook_id,
      delivery_id: delivery.id,
      // The next attempt not yet logged: the delivery worker skips it if that attempt happens meanwhile.
      attempt: delivery.attempts.length + 1,
      ...(delivery.retry_base ? { retry_base: delivery.retry_base } : {}),
    },
    dueAt: now + bounds.webhookLateAfterMs,
  };
}
