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
  buildDeliveryDelayEvent,
  buildDeliveryEvent,
  buildRejectEvent,
  buildSendEvent,
  type SesEvent,
  type SesMailObject,
} from './events';
import { sesId } from './ids';
import { plannedEvents, type PlannedEvent, type PlanOptions } from './simulator';
import { MATCHING_TYPE_OF, type ConfigurationSet, type OutboxEntry, type SesEventType } from './types';

/**
 * How long after its DeliveryDelay a delayed recipient's Delivery comes. SES publishes a DeliveryDelay while it
 * keeps retrying a temporary failure and the Delivery once a retry gets through, minutes or hours later
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-contents.html, "DeliveryDelay
 * object"): never at the same moment. Published together, a busy consumer could take the two in either order.
 */
export const DELIVERY_AFTER_DELAY_MS = 2000;

/**
 * The events of a message sent with `configSet`, in publishing order: Send at `acceptedAt`, early
 * outcome events (simulator.ts: `+early`, or not-sent events in `ses` order) at once, the other
 * outcome events `outcomeDelayMs` later, and at least `earlyLeadMs` after the early ones when there
 * are any (so a consumer sees them apart); a delayed recipient's Delivery `DELIVERY_AFTER_DELAY_MS` after
 * its DeliveryDelay. Event types no enabled SNS destination matches are left out.
 */
export function planOutbox(
  configSet: ConfigurationSet,
  recipients: readonly string[],
  acceptedAt: Date,
  outcomeDelayMs: number,
  plan: PlanOptions & { earlyLeadMs?: number } = {},
): OutboxEntry[] {
  const destinations = configSet.eventDestinations.filter((d) => d.Enabled && d.SnsDestination);
  const topicsFor = (type: SesEventType): string[] =>
    [
      ...new Set(
        destinations.filter((d) => d.MatchingEventTypes.includes(MATCHING_TYPE_OF[type])).map((d) => d.SnsDestination?.TopicArn ?? ''),
      ),
    ].filter((arn) => arn.length > 0);
  const sendAt = acceptedAt.toISOString();
  const events = plannedEvents(recipients, plan);
  const anyEarly = events.some((e) => e.early);
  // Outcome events come a little after Send, as from a real mailbox; early ones at once.
  const outcomeDate = new Date(acceptedAt.getTime() + Math.max(outcomeDelayMs, anyEarly ? (plan.earlyLeadMs ?? 0) : 0));

  const entries: OutboxEntry[] = [];
  for (const ev of events) {
    const topics = topicsFor(ev.type);
    if (topics.length === 0) continue;
    const date = ev.early ? acceptedAt : outcomeDate;
    const base = { type: ev.type, topics, unpublished: [...topics], at: date.toISOString() };
    entries.push(outboxEntry(ev, base, date, sendAt));
  }
  return entries;
}

/** The entry of one planned event: `base` (its type, topics and time) with what its type carries. */
function outboxEntry(ev: PlannedEvent, base: OutboxEntry, date: Date, sendAt: string): OutboxEntry {
  switch (ev.type) {
    case 'Send':
      return { ...base, at: sendAt };
    case 'Reject':
      return base;
    case 'Delivery':
      return {
        ...base,
        ...(ev.afterDelay ? { at: new Date(date.getTime() + DELIVERY_AFTER_DELAY_MS).toISOString() } : {}),
        recipients: ev.recipients,
      };
    case 'DeliveryDelay':
      return { ...base, recipients: ev.recipients, delayType: ev.delayType };
    case 'Bounce':
      return {
        ...base,
        recipients: ev.recipients,
        bounceType: ev.bounceType,
        bounceSubType: ev.subType,
        ...(ev.replies ? { replies: ev.replies } : {}),
        feedbackId: sesId(date.getTime()),
      };
    case 'Complaint':
      return {
        ...base,
        recipients: ev.recipients,
        ...(ev.complaintSubType ? { complaintSubType: ev.complaintSubType } : {}),
        feedbackId: sesId(date.getTime()),
      };
  }
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
      return buildBounceEvent(
        mail,
        recipients,
        entry.bounceSubType ?? 'General',
        at,
        entry.feedbackId ?? '',
        entry.bounceType,
        entry.replies,
      );
    case 'Complaint':
      return buildComplaintEvent(mail, recipients, at, entry.feedbackId ?? '', entry.complaintSubType ?? null);
    case 'DeliveryDelay':
      return buildDeliveryDelayEvent(mail, recipients, at, entry.delayType);
    case 'Reject':
      return buildRejectEvent(mail);
  }
}

/** Events still owed (not yet on every topic). */
export function owedCount(outbox: readonly OutboxEntry[]): number {
  return outbox.filter((e) => e.unpublished.length > 0).length;
}
