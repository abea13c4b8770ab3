/**
 * Parses SES notifications (configuration-set event publishing, `eventType`, or identity notifications,
 * `notificationType`), delivered through SNS to SQS, into a delivery outcome for one of our emails.
 * Pure: no AWS imports.
 */
import type { DeliveryOutcome } from '../emails/outcomes';

export interface ParsedSesEvent {
  emailId: string | null;
  accountId: string | null;
  providerMessageId: string;
  outcome: DeliveryOutcome | null;
}

export class MalformedSesEvent extends Error {}

interface SesMail {
  messageId?: string;
  timestamp?: string;
  tags?: Record<string, string[]>;
}

type Json = Record<string, any>;

/** Unwraps the SNS envelope when present (SNS -> SQS without raw delivery). */
export function unwrapSns(body: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new MalformedSesEvent('message body is not JSON');
  }
  if (isObject(parsed) && parsed.Type === 'Notification' && typeof parsed.Message === 'string') {
    try {
      parsed = JSON.parse(parsed.Message);
    } catch {
      throw new MalformedSesEvent('SNS Message is not JSON');
    }
  }
  if (!isObject(parsed)) throw new MalformedSesEvent('SES event is not an object');
  return parsed;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstTag(mail: SesMail, name: string): string | null {
  const value = mail.tags?.[name]?.[0];
  return typeof value === 'string' && value !== '' ? value : null;
}

export function parseSesEvent(body: string): ParsedSesEvent {
  const event = unwrapSns(body);
  const type = event.eventType ?? event.notificationType;
  const mail = event.mail as SesMail | undefined;
  if (typeof type !== 'string' || !isObject(mail) || typeof mail.messageId !== 'string') {
    throw new MalformedSesEvent('not an SES event (eventType/notificationType and mail.messageId required)');
  }
  const now = new Date().toISOString();
  const stamp = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : now);
  let outcome: DeliveryOutcome | null = null;
  switch (type) {
    case 'Send': {
      const at = stamp(mail.timestamp);
      outcome = { event: 'sent', status: 'sent', at, fields: { sent_at: at } };
      break;
    }
    case 'Delivery': {
      const at = stamp(event.delivery?.timestamp);
      outcome = { event: 'delivered', status: 'delivered', at, fields: { delivered_at: at } };
      break;
    }
    case 'DeliveryDelay': {
      outcome = { event: 'delivery_delayed', at: stamp(event.deliveryDelay?.timestamp), fields: {} };
      break;
    }
    case 'Bounce': {
      const bounce = event.bounce ?? {};
      const at = stamp(bounce.timestamp);
      const recipient = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients[0] : undefined;
      const reason = String(recipient?.diagnosticCode ?? `${bounce.bounceType ?? 'Bounce'}: ${bounce.bounceSubType ?? 'General'}`);
      if (bounce.bounceType === 'Transient') {
        outcome = { event: 'delivery_delayed', at, fields: {} };
      } else {
        outcome = { event: 'bounced', status: 'bounced', at, fields: { bounced_at: at, bounce_reason: reason, bounce_type: 'hard' } };
      }
      break;
    }
    case 'Complaint': {
      outcome = { event: 'complained', at: stamp(event.complaint?.timestamp), fields: {} };
      break;
    }
    case 'Reject': {
      const at = stamp(mail.timestamp);
      outcome = { event: 'failed', status: 'failed', at, fields: { bounce_reason: String(event.reject?.reason ?? 'Rejected by SES') } };
      break;
    }
    default:
      outcome = null; // Open, Click, Rendering Failure, Subscription: handled by later features.
  }
  return {
    emailId: firstTag(mail, 'email_id'),
    accountId: firstTag(mail, 'account_id'),
    providerMessageId: mail.messageId,
    outcome,
  };
}
