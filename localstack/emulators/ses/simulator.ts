/**
 * The SES mailbox simulator, as a pure function: which outcome each envelope recipient gets, and
 * which events one message therefore produces.
 *
 * Addresses at simulator.amazonses.com follow the real simulator (a `+label` is ignored, case does
 * not matter); every other address is delivered.
 */

export const SIMULATOR_DOMAIN = 'simulator.amazonses.com';

export type RecipientOutcome = 'delivery' | 'bounce' | 'suppressed' | 'complaint';

/** The outcome of one envelope recipient (a bare address, e.g. `bounce+x@simulator.amazonses.com`). */
export function outcomeFor(address: string): RecipientOutcome {
  const at = address.lastIndexOf('@');
  if (at < 0) return 'delivery';
  const domain = address.slice(at + 1).trim().toLowerCase();
  if (domain !== SIMULATOR_DOMAIN) return 'delivery';
  const local = address.slice(0, at).trim().toLowerCase();
  const plus = local.indexOf('+');
  const mailbox = plus >= 0 ? local.slice(0, plus) : local;
  switch (mailbox) {
    case 'bounce':
      return 'bounce';
    case 'suppressionlist':
      return 'suppressed';
    case 'complaint':
      return 'complaint';
    default:
      // success@, ooto@ (an auto-reply is still a delivery) and anything else.
      return 'delivery';
  }
}

export type BounceSubType = 'General' | 'OnAccountSuppressionList';

export interface OutcomePlan {
  /** Recipients with a Delivery (complained recipients are delivered first). */
  delivered: string[];
  /** Hard-bounced recipients, grouped by bounce sub-type (one Bounce event per non-empty group). */
  bounced: { subType: BounceSubType; recipients: string[] }[];
  /** Recipients who complain after delivery (one Complaint event for the message). */
  complained: string[];
}

/** Groups the envelope recipients of one message by outcome, keeping their order. */
export function planOutcomes(recipients: readonly string[]): OutcomePlan {
  const delivered: string[] = [];
  const general: string[] = [];
  const suppressed: string[] = [];
  const complained: string[] = [];
  for (const r of recipients) {
    switch (outcomeFor(r)) {
      case 'delivery':
        delivered.push(r);
        break;
      case 'complaint':
        delivered.push(r);
        complained.push(r);
        break;
      case 'bounce':
        general.push(r);
        break;
      case 'suppressed':
        suppressed.push(r);
        break;
    }
  }
  const bounced: OutcomePlan['bounced'] = [];
  if (general.length > 0) bounced.push({ subType: 'General', recipients: general });
  if (suppressed.length > 0) bounced.push({ subType: 'OnAccountSuppressionList', recipients: suppressed });
  return { delivered, bounced, complained };
}

export type PlannedEvent =
  | { type: 'Send' }
  | { type: 'Delivery'; recipients: string[] }
  | { type: 'Bounce'; subType: BounceSubType; recipients: string[] }
  | { type: 'Complaint'; recipients: string[] };

/** The events of one message in publishing order: Send, then Delivery, Bounce(s), Complaint. */
export function plannedEvents(recipients: readonly string[]): PlannedEvent[] {
  const plan = planOutcomes(recipients);
  const events: PlannedEvent[] = [{ type: 'Send' }];
  if (plan.delivered.length > 0) events.push({ type: 'Delivery', recipients: plan.delivered });
  for (const b of plan.bounced) events.push({ type: 'Bounce', subType: b.subType, recipients: b.recipients });
  if (plan.complained.length > 0) events.push({ type: 'Complaint', recipients: plan.complained });
  return events;
}
