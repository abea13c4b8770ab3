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
  /** When SES accepted the message (mail.timestamp). */
  sentAt: string;
  outcome: DeliveryOutcome | null;
  /**
   * A permanent refusal of the address (not a block). Refused during delivery it is `failed`; when the
   * message had been delivered first (an asynchronous bounce) the caller turns it into `bounced`.
   */
  addressRefusal?: boolean;
  /** Addresses to put on the suppression list: hard bounces and complaints. */
  suppress?: { reason: 'bounce' | 'complaint'; emails: string[] };
}

/** Permanent bounce sub-types that mean the address itself was refused while delivering. */
const REFUSED_ADDRESS = new Set(['NoEmail', 'Suppressed', 'OnAccountSuppressionList']);

/** Refusals caused by the sender's reputation or content, not by the address: not suppressed. */
function isBlock(bounceSubType: string | undefined, status: string | undefined, diagnostic: string): boolean {
  if (bounceSubType === 'ContentRejected' || bounceSubType === 'AttachmentRejected') return true;
  if (status?.startsWith('5.7.')) return true;
  return /\b(block(ed|list)?|blacklist|spam|reputation|policy)\b/i.test(diagnostic);
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

function addressesOf(recipients: Json[]): string[] {
  return recipients.map((recipient) => recipient?.emailAddress).filter((address): address is string => typeof address === 'string' && address.includes('@'));
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
  let addressRefusal = false;
  let suppress: ParsedSesEvent['suppress'];
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
      const recipients: Json[] = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients : [];
      const first = recipients[0];
      const diagnostic = String(first?.diagnosticCode ?? '');
      const reason = diagnostic || `${bounce.bounceType ?? 'Bounce'}: ${bounce.bounceSubType ?? 'General'}`;
      if (bounce.bounceType !== 'Permanent') {
        // Transient (mailbox full, message too large, ...) and Undetermined: SES has given up retrying
        // for now; reported as delayed, never suppressed.
        outcome = { event: 'delivery_delayed', at, fields: {} };
      } else if (isBlock(bounce.bounceSubType, first?.status, diagnostic)) {
        outcome = { event: 'bounced', status: 'bounced', at, fields: { bounced_at: at, bounce_reason: reason, bounce_type: 'block' } };
      } else if (REFUSED_ADDRESS.has(bounce.bounceSubType)) {
        // The receiving side refused the address itself (it does not exist, or is suppressed).
        outcome = { event: 'failed', status: 'failed', at, fields: { bounced_at: at, bounce_reason: reason, bounce_type: 'hard' } };
        addressRefusal = true;
        suppress = { reason: 'bounce', emails: addressesOf(recipients) };
      } else {
        outcome = { event: 'bounced', status: 'bounced', at, fields: { bounced_at: at, bounce_reason: reason, bounce_type: 'hard' } };
        suppress = { reason: 'bounce', emails: addressesOf(recipients) };
      }
      break;
    }
    case 'Complaint': {
      outcome = { event: 'complained', at: stamp(event.complaint?.timestamp), fields: {} };
      const recipients: Json[] = Array.isArray(event.complaint?.complainedRecipients) ? event.complaint.complainedRecipients : [];
      suppress = { reason: 'complaint', emails: addressesOf(recipients) };
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
    sentAt: stamp(mail.timestamp),
    outcome,
    ...(addressRefusal ? { addressRefusal } : {}),
    ...(suppress && suppress.emails.length ? { suppress } : {}),
  };
}
