/**
 * The events SES owes for one message (its outbox), as pure functions.
 *
 * The outbox is planned when SendEmail accepts the message and stored with it before SES answers,
 * so every owed event survives a crash. Everything that varies between publishes is fixed here
 * (the time the event carries, feedback ids, the topics), and `eventRecord` builds the record from
 * the stored entry alone: a re-publish after a restart sends exactly the same content, and a
 * consumer can deduplicate it by message id and event type.
 */
import {
  buildBounceEvent,
  buildComplaintEvent,
  buildDeliveryEvent,
  buildSendEvent,
  type SesEvent,
  type SesMailObject,
} from './events';
import { sesId } from './ids';
import { plannedEvents, type BounceSubType } from './simulator';
import { MATCHING_TYPE_OF, type ConfigurationSet, type SesEventType } from './types';

export interface OutboxEntry {
  type: SesEventType;
  /** When the event is due (ISO); also the timestamp its record carries. */
  at: string;
  /** Every topic the event goes to (the matching destinations when the message was accepted). */
  topics: string[];
  /** Topics it has not reached yet; empty once published. */
  unpublished: string[];
  /** Delivery, Bounce, Complaint: the recipients concerned. */
  recipients?: string[];
  bounceSubType?: BounceSubType;
  /** Bounce, Complaint. */
  feedbackId?: string;
  /** When it reached its last topic. */
  publishedAt?: string;
}

/**
 * The events of a message sent with `configSet`, in publishing order: Send at `acceptedAt`, the
 * outcome events `outcomeDelayMs` later. Event types no enabled SNS destination matches are left out.
 */
export function planOutbox(configSet: ConfigurationSet, recipients: readonly string[], acceptedAt: Date, outcomeDelayMs: number): OutboxEntry[] {
  const destinations = configSet.eventDestinations.filter((d) => d.Enabled && d.SnsDestination);
  const topicsFor = (type: SesEventType): string[] =>
    [...new Set(destinations.filter((d) => d.MatchingEventTypes.includes(MATCHING_TYPE_OF[type])).map((d) => d.SnsDestination?.TopicArn ?? ''))].filter(
      (arn) => arn.length > 0,
    );
  const sendAt = acceptedAt.toISOString();
  // Outcome events come a little after Send, as from a real mailbox.
  const outcomeDate = new Date(acceptedAt.getTime() + outcomeDelayMs);
  const outcomeAt = outcomeDate.toISOString();

  const entries: OutboxEntry[] = [];
  for (const ev of plannedEvents(recipients)) {
    const topics = topicsFor(ev.type);
    if (topics.length === 0) continue;
    const base = { type: ev.type, topics, unpublished: [...topics] };
    switch (ev.type) {
      case 'Send':
        entries.push({ ...base, at: sendAt });
        break;
      case 'Delivery':
        entries.push({ ...base, at: outcomeAt, recipients: ev.recipients });
        break;
      case 'Bounce':
        entries.push({ ...base, at: outcomeAt, recipients: ev.recipients, bounceSubType: ev.subType, feedbackId: sesId(outcomeDate.getTime()) });
        break;
      case 'Complaint':
        entries.push({ ...base, at: outcomeAt, recipients: ev.recipients, feedbackId: sesId(outcomeDate.getTime()) });
        break;
    }
  }
  return entries;
}

/** The record of one owed event; the same entry always gives the same record. */
export function eventRecord(mail: SesMailObject, entry: OutboxEntry): SesEvent {
  const at = new Date(entry.at);
  const recipients = entry.recipients ?? [];
  switch (entry.type) {
    case 'Send':
      return buildSendEvent(mail);
    case 'Delivery':
      return buildDeliveryEvent(mail, recipients, at);
    case 'Bounce':
      return buildBounceEvent(mail, recipients, entry.bounceSubType ?? 'General', at, entry.feedbackId ?? '');
    case 'Complaint':
      return buildComplaintEvent(mail, recipients, at, entry.feedbackId ?? '');
  }
}

/** Events still owed (not yet on every topic). */
export function owedCount(outbox: readonly OutboxEntry[]): number {
  return outbox.filter((e) => e.unpublished.length > 0).length;
}
