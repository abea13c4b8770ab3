/**
 * Parses SES notifications (configuration-set event publishing, `eventType`, or identity notifications,
 * `notificationType`), delivered through SNS to SQS, into a delivery outcome for one of our emails.
 * Pure: no AWS imports.
 */
import type { DeliveryOutcome } from '../emails/outcomes';
import { categorize, type BounceCategory } from '../bounces/bounce-category';
import { sesMessageIdOf } from './ses-message-id';

export interface ParsedSesEvent {
  emailId: string | null;
  accountId: string | null;
  providerMessageId: string;
  /** The Message-ID recipients saw (SES's own, ./ses-message-id.ts), when the event names the region it was sent from. */
  messageId?: string;
  /** When SES accepted the message (mail.timestamp). */
  sentAt: string;
  outcome: DeliveryOutcome | null;
  /**
   * What the event says of each of its recipients, for the decision per recipient (apply-ses-event.ts):
   * `reached` (delivered, or the receiving side bounced it: the message went out to them), `refused`
   * (not sent to them: the address refused while delivering, or on SES's suppression list). A refusal's
   * outcome (`failed`) holds only when no recipient was reached; otherwise the email is `bounced`.
   */
  recipients?: { result: RecipientResult; addresses: string[] };
  /**
   * Whether the event names every recipient of the message (`mail.destination`, lower-cased, all among its
   * recipients): then nothing else can be pending when it is applied, and a `reached` event's outcome is
   * written with its recipients in one write (apply-ses-event.ts).
   */
  namesEveryRecipient?: boolean;
  /**
   * Addresses to put on the suppression list: complaints always; bounced addresses when the account
   * suppresses their category (`suppress_bounce_categories`, decided by apply-ses-event.ts). A not-sent
   * bounce (SES's suppression lists) is never a candidate.
   */
  suppress?: { reason: 'complaint'; emails: string[] } | { reason: 'bounce'; recipients: BouncedRecipient[] };
  /** A DeliveryDelay's type and category (the first delayed recipient's), for email.delivery_delayed. */
  delay?: { type: string; category: BounceCategory };
}

/** A bounced address and its category (../bounces/bounce-category.ts). */
export interface BouncedRecipient {
  email: string;
  category: BounceCategory;
}

export type RecipientResult = 'reached' | 'refused';

/** Permanent bounce sub-types that mean the address itself was refused while delivering. */
const REFUSED_ADDRESS = new Set(['NoEmail', 'Suppressed']);

/**
 * SES's own suppression lists: SES accepted the message but did not send it to the address, because an
 * earlier bounce or complaint (maybe another customer's, through the shared account-level list) put it
 * there. Not a bounce of this email: never suppressed on our lists (sending-email-suppression-list.html).
 */
const SES_SUPPRESSION_LIST = new Set(['OnAccountSuppressionList', 'OnTenantSuppressionList']);

/** Bounce sub-types that are refusals of the content, not of the address (SES publishes them as Transient). */
const CONTENT_REFUSALS = new Set(['ContentRejected', 'AttachmentRejected']);

/** The bounce_type of an email SES did not send (its suppression lists). */
export const NOT_SENT = 'not_sent';

/** Refusals caused by the sender's reputation or content, not by the address (bounce_type `block`; their category says which). */
function isBlock(bounceSubType: string | undefined, status: string | undefined, diagnostic: string): boolean {
  if (bounceSubType && CONTENT_REFUSALS.has(bounceSubType)) return true;
  if (status?.startsWith('5.7.')) return true;
  return /\b(block(ed|list)?|blacklist|spam|reputation|policy)\b/i.test(diagnostic);
}

function notSentReason(list: string, diagnostic: string): string {
  const which = list === 'OnTenantSuppressionList' ? "the SES tenant's suppression list" : "the SES account's suppression list";
  return `Not sent: the address is on ${which}${diagnostic ? ` (${diagnostic})` : ''}`;
}

export class MalformedSesEvent extends Error {}

/** The category of an email SES did not send (its suppression lists): SES does not say why the address is listed. */
const NOT_SENT_CATEGORY: BounceCategory = 'unclassified';

/** A bounced or delayed recipient's enhanced status code and SMTP reply, as the rule table reads them. */
function recipientFacts(recipient: Json | undefined): { status?: string; diagnosticCode?: string } {
  return {
    ...(typeof recipient?.status === 'string' ? { status: recipient.status } : {}),
    ...(typeof recipient?.diagnosticCode === 'string' ? { diagnosticCode: recipient.diagnosticCode } : {}),
  };
}

interface SesMail {
  messageId?: string;
  /** The sending identity's ARN (`arn:aws:ses:<region>:<account>:identity/<name>`): the region SES sent from. */
  sourceArn?: string;
  timestamp?: string;
  tags?: Record<string, string[]>;
  /** Every recipient of the message (To, Cc and Bcc). */
  destination?: unknown;
}

/** Whether `addresses` hold every address of the message's destination (case aside); false when SES gave none. */
function namesEveryRecipient(mail: SesMail, addresses: string[]): boolean {
  const destination = Array.isArray(mail.destination)
    ? mail.destination.filter((address): address is string => typeof address === 'string')
    : [];
  if (destination.length === 0) return false;
  const named = new Set(addresses.map((address) => address.toLowerCase()));
  return destination.every((address) => named.has(address.toLowerCase()));
}

type Json = Record<string, unknown>;

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

/** A member that is an object; undefined otherwise (reading a member of anything else JSON holds finds nothing either). */
function objectAt(value: unknown): Json | undefined {
  return isObject(value) ? value : undefined;
}

function addressesOf(recipients: Json[]): string[] {
  return recipients
    .map((recipient) => recipient?.emailAddress)
    .filter((address): address is string => typeof address === 'string' && address.includes('@'));
}

function firstTag(mail: SesMail, name: string): string | null {
  const value = mail.tags?.[name]?.[0];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** What one event type says: its outcome (null: an event handled elsewhere) and its per-recipient facts. */
type Reading = Pick<ParsedSesEvent, 'outcome' | 'recipients' | 'suppress' | 'delay'>;

/** A timestamp of the event as ISO 8601 (the time of reading when it has none or a broken one). */
type Stamp = (value: unknown) => string;

function sendReading(_event: Json, mail: SesMail, stamp: Stamp): Reading {
  const at = stamp(mail.timestamp);
  return { outcome: { event: 'sent', status: 'sent', at, fields: { sent_at: at } } };
}

function deliveryReading(event: Json, _mail: SesMail, stamp: Stamp): Reading {
  const delivery = objectAt(event.delivery);
  const at = stamp(delivery?.timestamp);
  const delivered: unknown[] = Array.isArray(delivery?.recipients) ? delivery.recipients : [];
  return {
    outcome: { event: 'delivered', status: 'delivered', at, fields: { delivered_at: at } },
    recipients: { result: 'reached', addresses: delivered.filter((a): a is string => typeof a === 'string' && a.includes('@')) },
  };
}

/** SES is still trying: the email stays `sent` (the store moves last_event only while it is not final). */
function delayReading(event: Json, _mail: SesMail, stamp: Stamp): Reading {
  const deliveryDelay = objectAt(event.deliveryDelay);
  const delayed: Json[] = Array.isArray(deliveryDelay?.delayedRecipients) ? deliveryDelay.delayedRecipients : [];
  const type = String(deliveryDelay?.delayType ?? 'Undetermined');
  return {
    outcome: { event: 'delivery_delayed', at: stamp(deliveryDelay?.timestamp), fields: {} },
    delay: { type, category: categorize({ kind: 'delay', delayType: type, ...recipientFacts(delayed[0]) }).category },
  };
}

function complaintReading(event: Json, _mail: SesMail, stamp: Stamp): Reading {
  const complaint = objectAt(event.complaint);
  const at = stamp(complaint?.timestamp);
  const complained = addressesOf(Array.isArray(complaint?.complainedRecipients) ? complaint.complainedRecipients : []);
  if (complaint?.complaintSubType !== 'OnAccountSuppressionList')
    return { outcome: { event: 'complained', at, fields: {} }, suppress: { reason: 'complaint', emails: complained } };
  // SES did not send it (the address is on its list after an earlier complaint): not a complaint of ours.
  return {
    outcome: {
      event: 'failed',
      status: 'failed',
      at,
      fields: {
        bounced_at: at,
        bounce_reason: notSentReason('OnAccountSuppressionList', 'an earlier complaint'),
        bounce_type: NOT_SENT,
        bounce_category: NOT_SENT_CATEGORY,
      },
    },
    recipients: { result: 'refused', addresses: complained },
  };
}

/** SES found a virus after accepting the message and sent it to nobody (reason "Bad content"). */
function rejectReading(event: Json, mail: SesMail, stamp: Stamp): Reading {
  return {
    outcome: {
      event: 'failed',
      status: 'failed',
      at: stamp(mail.timestamp),
      fields: { bounce_reason: `Rejected by SES: ${String(objectAt(event.reject)?.reason ?? 'Rejected')}` },
    },
  };
}

/** The event types read here; the others (Open, Click, Rendering Failure, Subscription) have no outcome. */
const READINGS: Record<string, (event: Json, mail: SesMail, stamp: Stamp) => Reading> = {
  Send: sendReading,
  Delivery: deliveryReading,
  DeliveryDelay: delayReading,
  Bounce: (event, _mail, stamp) => bounceOutcome(objectAt(event.bounce) ?? {}, stamp),
  Complaint: complaintReading,
  Reject: rejectReading,
};

/** The region of an SES ARN (`arn:aws:ses:<region>:...`), or null. */
function regionOf(arn: unknown): string | null {
  return typeof arn === 'string' ? (/^arn:aws[a-z-]*:ses:([a-z0-9-]+):/.exec(arn)?.[1] ?? null) : null;
}

export function parseSesEvent(body: string): ParsedSesEvent {
  const event = unwrapSns(body);
  const type = event.eventType ?? event.notificationType;
  const mail = event.mail as SesMail | undefined;
  if (typeof type !== 'string' || !isObject(mail) || typeof mail.messageId !== 'string') {
    throw new MalformedSesEvent('not an SES event (eventType/notificationType and mail.messageId required)');
  }
  const now = new Date().toISOString();
  const stamp: Stamp = (value) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : now);
  const read = Object.hasOwn(READINGS, type) ? READINGS[type]! : null;
  const { outcome, recipients, suppress, delay }: Reading = read ? read(event, mail, stamp) : { outcome: null };
  const region = regionOf(mail.sourceArn);
  return {
    emailId: firstTag(mail, 'email_id'),
    accountId: firstTag(mail, 'account_id'),
    providerMessageId: mail.messageId,
    ...(region ? { messageId: sesMessageIdOf(mail.messageId, region) } : {}),
    sentAt: stamp(mail.timestamp),
    outcome,
    ...(recipients?.addresses.length ? { recipients, namesEveryRecipient: namesEveryRecipient(mail, recipients.addresses) } : {}),
    ...(suppress && (suppress.reason === 'complaint' ? suppress.emails : suppress.recipients).length ? { suppress } : {}),
    ...(delay ? { delay } : {}),
  };
}

/**
 * A Bounce (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html,
 * bounce types). Every bounce is final: Transient ones too ("SES has stopped trying to re-deliver it").
 *
 *   Permanent OnAccountSuppressionList / OnTenantSuppressionList -> failed, not_sent (refused; never suppressed)
 *   a block (Transient ContentRejected/AttachmentRejected, 5.7.x, spam/policy diagnostics) -> bounced, block
 *   Permanent NoEmail / Suppressed      -> failed, hard (refused)
 *   Permanent otherwise (General)       -> bounced, hard
 *   Transient otherwise                 -> bounced, soft, the sub-type in the reason
 *   Undetermined                        -> bounced, undetermined
 *
 * Each bounced recipient gets its category (../bounces/bounce-category.ts; the email keeps the first one's, as it
 * keeps its reason), and is a candidate for the suppression list: the account's setting decides.
 */
function bounceOutcome(bounce: Json, stamp: (value: unknown) => string): Pick<ParsedSesEvent, 'outcome' | 'recipients' | 'suppress'> {
  const at = stamp(bounce.timestamp);
  const bounced: Json[] = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients : [];
  const addresses = addressesOf(bounced);
  const first = bounced[0];
  const diagnostic = String(first?.diagnosticCode ?? '');
  const type = String(bounce.bounceType ?? 'Undetermined');
  const subType = String(bounce.bounceSubType ?? (type === 'Undetermined' ? 'Undetermined' : 'General'));
  const categoryOf = (recipient: Json | undefined) =>
    categorize({ kind: 'bounce', bounceType: type, bounceSubType: subType, ...recipientFacts(recipient) }).category;
  const bounce_category = categoryOf(first);
  const fields = (bounce_type: string, bounce_reason: string) => ({ bounced_at: at, bounce_reason, bounce_type, bounce_category });
  const bouncedAs = (bounce_type: string, reason: string): DeliveryOutcome => ({
    event: 'bounced',
    status: 'bounced',
    at,
    fields: fields(bounce_type, reason),
  });
  const reached = { result: 'reached' as const, addresses };

  if (SES_SUPPRESSION_LIST.has(subType)) {
    return {
      outcome: {
        event: 'failed',
        status: 'failed',
        at,
        fields: { ...fields(NOT_SENT, notSentReason(subType, diagnostic)), bounce_category: NOT_SENT_CATEGORY },
      },
      recipients: { result: 'refused', addresses },
    };
  }
  const suppress = {
    reason: 'bounce' as const,
    recipients: bounced
      .filter((recipient) => typeof recipient?.emailAddress === 'string' && recipient.emailAddress.includes('@'))
      .map((recipient) => ({ email: recipient.emailAddress as string, category: categoryOf(recipient) })),
  };
  const softReason = `${type} bounce (${subType})${diagnostic ? `: ${diagnostic}` : ''}`;
  if (isBlock(subType, first?.status as string | undefined, diagnostic)) {
    return {
      outcome: bouncedAs('block', type === 'Permanent' ? diagnostic || `${type}: ${subType}` : softReason),
      recipients: reached,
      suppress,
    };
  }
  if (type === 'Permanent') {
    const reason = diagnostic || `${type}: ${subType}`;
    if (REFUSED_ADDRESS.has(subType)) {
      // The receiving side refused the address itself while delivering.
      return {
        outcome: { event: 'failed', status: 'failed', at, fields: fields('hard', reason) },
        recipients: { result: 'refused', addresses },
        suppress,
      };
    }
    return { outcome: bouncedAs('hard', reason), recipients: reached, suppress };
  }
  if (type === 'Transient') return { outcome: bouncedAs('soft', softReason), recipients: reached, suppress };
  return { outcome: bouncedAs('undetermined', `Undetermined bounce${diagnostic ? `: ${diagnostic}` : ''}`), recipients: reached, suppress };
}
