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
import type { EmailOutcomes, OutcomeBasis } from '../../adapters/store/emails/outcomes';
import { suppressAddresses, type SuppressionDeps } from '../suppressions/suppressions';

export type ApplyResult = 'applied' | 'ignored' | 'unknown_email';

/** The account's choice of categories that suppress (a cached read: shared/adapters/store/account-bounce-suppression.ts). */
export interface BounceSuppressionLookup {
  categoriesOf(accountId: string): Promise<readonly BounceCategory[]>;
}

export type ApplySesEventDeps = {
  emails: Pick<EmailOutcomes, 'applyOutcome' | 'recordRecipients' | 'applyReachedOutcome'>;
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
const MAIL_FIELDS = new Set(['sent_at', 'provider_message_id', 'message_id']);

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

/** A notification of one of our emails (its tags name the email and the account). */
type OwnEvent = ParsedSesEvent & { emailId: string; accountId: string };

/** What a write changed, to publish. */
interface Applied {
  email: Email;
  outcome: DeliveryOutcome;
}

/**
 * The notification's outcome, with sent_at, the provider's id and the Message-ID recipients saw where the send
 * worker did not record them: it died between SES's answer and its write, or its write is still to come (this
 * event overtook it), and this event is how the email learns it was sent (first value wins). A send worker that
 * then finds the email sent publishes email.sent from the record: with its Message-ID.
 */
function outcomeOf(event: ParsedSesEvent, outcome: DeliveryOutcome): DeliveryOutcome {
  return {
    ...outcome,
    fields: {
      ...outcome.fields,
      sent_at: outcome.fields.sent_at ?? event.sentAt,
      provider_message_id: event.providerMessageId,
      ...(event.messageId ? { message_id: event.messageId } : {}),
    },
  };
}

/**
 * The outcomes to write: one per recipient decision when the event names its recipients (tallied first,
 * with the email as the tally's write left it: the basis of the first outcome's writes); null: unknown email.
 */
async function outcomesToApply(
  deps: ApplySesEventDeps,
  event: OwnEvent,
  outcome: DeliveryOutcome,
): Promise<{ outcomes: DeliveryOutcome[]; basis?: OutcomeBasis } | null> {
  if (!event.recipients) return { outcomes: [outcome] };
  const { result, addresses } = event.recipients;
  const recorded = await deps.emails.recordRecipients(
    event.emailId,
    event.accountId,
    result,
    addresses,
    result === 'refused' ? refusalFields(outcome) : undefined,
  );
  if (!recorded) return null;
  return { outcomes: decidePerRecipient(outcome, result, recorded.tally, event.sentAt), basis: recorded.basis };
}

/**
 * Each outcome written in turn: the email as the last write left it, and what the writes changed; null:
 * unknown email. The basis serves the first outcome only (a write before the next one changed the email).
 */
async function writeOutcomes(
  deps: ApplySesEventDeps,
  event: OwnEvent,
  { outcomes, basis }: { outcomes: DeliveryOutcome[]; basis?: OutcomeBasis },
): Promise<{ email: Email; published: Applied[] } | null> {
  let email: Email | null = null;
  const published: Applied[] = [];
  for (const [index, next] of outcomes.entries()) {
    const write = await deps.emails.applyOutcome(event.emailId, event.accountId, next, index === 0 ? basis : undefined);
    if (write.kind === 'missing') return null;
    email = write.email;
    // Only news: a write that moved nothing (a late delay, a duplicate, a held refusal's `sent`) publishes
    // nothing, unless the email already records this very event: the notification came again because the
    // worker died between its write and its publish, and the webhook (same id) is owed, delivered once.
    const news = write.kind === 'moved' || write.kind === 'advanced' || recordsThisEvent(write.email, next);
    if (news && next.event !== 'sent') published.push({ email: write.email, outcome: next });
  }
  return email ? { email, published } : null;
}

/**
 * An event that reached every recipient of the email (one Delivery for a one-recipient email, the most common
 * case; or one for all of them): the outcome and the recipients in one write, while nothing was refused (the
 * tally would then decide the outcome as it is). Undefined when it does not apply: the two-step path decides.
 */
async function reachedInOneWrite(
  deps: ApplySesEventDeps,
  event: OwnEvent,
  outcome: DeliveryOutcome,
): Promise<{ email: Email; published: Applied[] } | undefined> {
  const { recipients } = event;
  if (recipients?.result !== 'reached' || !event.namesEveryRecipient || !outcome.status) return undefined;
  const email = await deps.emails.applyReachedOutcome(event.emailId, event.accountId, recipients.addresses, outcome);
  return email ? { email, published: [{ email, outcome }] } : undefined;
}

/** The tally first (when the event names recipients), then each outcome it decides; null: unknown email. */
async function writeEach(deps: ApplySesEventDeps, event: OwnEvent, outcome: DeliveryOutcome) {
  const toApply = await outcomesToApply(deps, event, outcome);
  return toApply ? writeOutcomes(deps, event, toApply) : null;
}

/**
 * The webhook events, from the email as each write left it. Their ids are derived from the email and
 * type, so a duplicate notification (SNS and SQS are at-least-once) is delivered once.
 * sent_at came from this provider event (see outcomeOf): email.sent was never published; publish it first
 * (its id is the same as the worker's would have been, so it is delivered once either way).
 */
function webhookEvents(event: OwnEvent, email: Email, published: Applied[]) {
  const sentHere = email.sent_at === event.sentAt;
  return [
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
  ];
}

/** Throws MalformedSesEvent for bodies that are not SES events (the caller decides their fate). */
export async function applySesEvent(deps: ApplySesEventDeps, body: string): Promise<ApplyResult> {
  const parsed = parseSesEvent(body);
  // `sent` is recorded by the send worker from SES's answer (with email.sent); a Send event would only
  // repeat it with a write expected to fail. The configuration set does not subscribe to it.
  if (!parsed.outcome || parsed.outcome.event === 'sent') return 'ignored';
  if (!parsed.emailId || !parsed.accountId) return 'unknown_email'; // not sent by this service (no tags)
  const event: OwnEvent = { ...parsed, emailId: parsed.emailId, accountId: parsed.accountId };
  const outcome = outcomeOf(event, parsed.outcome);
  const written = (await reachedInOneWrite(deps, event, outcome)) ?? (await writeEach(deps, event, outcome));
  if (!written) return 'unknown_email';
  const { email, published } = written;
  const suppressed = await addressesToSuppress(deps, event.accountId, event.suppress);
  if (suppressed.length) {
    await suppressAddresses(deps, {
      accountId: event.accountId,
      tenantId: email.tenant_id ?? null,
      emails: suppressed,
      reason: event.suppress!.reason,
    });
  }
  await deps.events.publish(webhookEvents(event, email, published));
  return 'applied';
}
