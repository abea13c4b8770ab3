/**
 * The SES events worker's use case: turn one SES notification into a status change of our email, and
 * put bounced addresses whose category the account suppresses (`suppress_bounce_categories`, by default
 * invalid address, inactive mailbox, invalid domain: docs/deliverability.md) and complaining addresses on
 * the suppression list: the account's, or for a tenant's email the tenant's (spec: suppressions from
 * bounces and complaints of tenant email go on its list).
 *
 * Outcomes are decided per recipient, whatever the arrival order (../../domain/ses/recipient-decision.ts),
 * and a webhook is published only for what a write changed: a late event that moves nothing (a delay after
 * the delivery, a duplicate) publishes nothing.
 */
import { parseSesEvent, type ParsedSesEvent } from '../../domain/ses/ses-event';
import { decidePerRecipient, refusalFields } from '../../domain/ses/recipient-decision';
import type { DeliveryEvent, DeliveryOutcome } from '../../domain/emails/outcomes';
import type { BounceCategory } from '../../domain/bounces/bounce-category';
import type { Email } from '../../domain/emails/email';
import { emailEvent } from '../../domain/webhooks/email-event-data';
import type { EventType } from '../../domain/webhooks/event-types';
import type { EventPublisher } from '../../ports/events';
import type { EmailOutcomes } from '../../adapters/store/emails/outcomes';
import { suppressAddresses, type SuppressionDeps } from '../suppressions/suppressions';

export type ApplyResult = 'applied' | 'ignored' | 'unknown_email';

/** The account's choice of categories that suppress (a cached read: shared/adapters/store/account-bounce-suppression.ts). */
export interface BounceSuppressionLookup {
  categoriesOf(accountId: string): Promise<readonly BounceCategory[]>;
}

export type ApplySesEventDeps = {
  emails: Pick<EmailOutcomes, 'applyOutcome' | 'recordRecipients'>;
  events: EventPublisher;
  bounceSuppression: BounceSuppressionLookup;
} & SuppressionDeps;

const EVENT_TYPE: Record<DeliveryEvent, EventType> = {
  sent: 'email.sent',
  delivered: 'email.delivered',
  delivery_delayed: 'email.delivery_delayed',
  bounced: 'email.bounced',
  failed: 'email.failed',
  complained: 'email.complained',
};

/** Fields every outcome carries from the notification's mail object (not the event's own facts). */
const MAIL_FIELDS = new Set(['sent_at', 'provider_message_id']);

/**
 * Whether the email records this very event: each of its own fields (delivered_at, bounced_at, the
 * reason...) as the email holds it, or for an event without fields (a complaint), its last event. A delay
 * never: each report is an occurrence of its own, and one after a later event is not news.
 */
function recordsThisEvent(email: Email, outcome: DeliveryOutcome): boolean {
  if (outcome.event === 'delivery_delayed' || outcome.event === 'sent') return false;
  const own = Object.entries(outcome.fields).filter(([name]) => !MAIL_FIELDS.has(name));
  if (own.length === 0) return email.last_event === outcome.event;
  return own.every(([name, value]) => (email as unknown as Record<string, unknown>)[name] === value);
}

/** Complainers always; bounced addresses whose category the account suppresses (read only for a bounce). */
async function addressesToSuppress(deps: ApplySesEventDeps, accountId: string, suppress: ParsedSesEvent['suppress']): Promise<string[]> {
  if (!suppress) return [];
  if (suppress.reason === 'complaint') return suppress.emails;
  const chosen = await deps.bounceSuppression.categoriesOf(accountId);
  return suppress.recipients.filter((recipient) => chosen.includes(recipient.category)).map((recipient) => recipient.email);
}

/** Throws MalformedSesEvent for bodies that are not SES events (the caller decides their fate). */
export async function applySesEvent(deps: ApplySesEventDeps, body: string): Promise<ApplyResult> {
  const event = parseSesEvent(body);
  // `sent` is recorded by the send worker from SES's answer (with email.sent); a Send event would only
  // repeat it with a write expected to fail. The configuration set does not subscribe to it.
  if (!event.outcome || event.outcome.event === 'sent') return 'ignored';
  if (!event.emailId || !event.accountId) return 'unknown_email'; // not sent by this service (no tags)
  // sent_at and the provider's id where the send worker did not record them: it died between SES's
  // answer and its write, and this event is how the email learns it was sent (first value wins).
  const outcome: DeliveryOutcome = {
    ...event.outcome,
    fields: {
      ...event.outcome.fields,
      sent_at: event.outcome.fields.sent_at ?? event.sentAt,
      provider_message_id: event.providerMessageId,
    },
  };
  let outcomes = [outcome];
  if (event.recipients) {
    const { result, addresses } = event.recipients;
    const tally = await deps.emails.recordRecipients(
      event.emailId,
      event.accountId,
      result,
      addresses,
      result === 'refused' ? refusalFields(outcome) : undefined,
    );
    if (!tally) return 'unknown_email';
    outcomes = decidePerRecipient(outcome, result, tally, event.sentAt);
  }

  let email: Email | null = null;
  const published: { email: Email; outcome: DeliveryOutcome }[] = [];
  for (const next of outcomes) {
    const write = await deps.emails.applyOutcome(event.emailId, event.accountId, next);
    if (write.kind === 'missing') return 'unknown_email';
    email = write.email;
    // Only news: a write that moved nothing (a late delay, a duplicate, a held refusal's `sent`) publishes
    // nothing, unless the email already records this very event: the notification came again because the
    // worker died between its write and its publish, and the webhook (same id) is owed, delivered once.
    const news = write.kind === 'moved' || write.kind === 'advanced' || recordsThisEvent(write.email, next);
    if (news && next.event !== 'sent') published.push({ email: write.email, outcome: next });
  }
  if (!email) return 'unknown_email';
  const suppressed = await addressesToSuppress(deps, event.accountId, event.suppress);
  if (suppressed.length) {
    await suppressAddresses(deps, {
      accountId: event.accountId,
      tenantId: email.tenant_id ?? null,
      emails: suppressed,
      reason: event.suppress!.reason,
    });
  }
  // The webhook events, from the email as each write left it. Their ids are derived from the email and
  // type, so a duplicate notification (SNS and SQS are at-least-once) is delivered once.
  // sent_at came from this provider event (see above): email.sent was never published; publish it first
  // (its id is the same as the worker's would have been, so it is delivered once either way).
  const sentHere = email.sent_at === event.sentAt;
  await deps.events.publish([
    ...(sentHere ? [emailEvent(email, 'email.sent', event.sentAt)] : []),
    ...published.map(({ email: after, outcome: applied }) =>
      emailEvent(after, EVENT_TYPE[applied.event], applied.at, {
        occurrence: applied.event === 'delivery_delayed' ? applied.at : undefined,
        extra:
          applied.event === 'complained'
            ? { complained_at: applied.at }
            : applied.event === 'delivery_delayed' && event.delay
              ? { bounce_category: event.delay.category, delay_type: event.delay.type }
              : {},
      }),
    ),
  ]);
  return 'applied';
}
