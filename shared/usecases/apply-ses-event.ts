/**
 * The SES events worker's use case: turn one SES notification into a status change of our email, and
 * put hard-bounced and complaining addresses on the suppression list: the account's, or for a tenant's
 * email the tenant's (spec: suppressions from bounces and complaints of tenant email go on its list).
 */
import { parseSesEvent } from '../domain/ses/ses-event';
import type { DeliveryEvent } from '../domain/emails/outcomes';
import { emailEvent } from '../domain/webhooks/email-event-data';
import type { EventType } from '../domain/webhooks/event-types';
import type { EventPublisher } from '../ports';
import type { EmailRepository } from '../store/emails';
import { suppressAddresses, type SuppressionDeps } from './suppressions';

export type ApplyResult = 'applied' | 'ignored' | 'unknown_email';

export type ApplySesEventDeps = { emails: EmailRepository; events: EventPublisher } & SuppressionDeps;

const EVENT_TYPE: Record<DeliveryEvent, EventType> = {
  sent: 'email.sent',
  delivered: 'email.delivered',
  delivery_delayed: 'email.delivery_delayed',
  bounced: 'email.bounced',
  failed: 'email.failed',
  complained: 'email.complained',
};

/** Throws MalformedSesEvent for bodies that are not SES events (the caller decides their fate). */
export async function applySesEvent(deps: ApplySesEventDeps, body: string): Promise<ApplyResult> {
  const event = parseSesEvent(body);
  // `sent` is recorded by the send worker from SES's answer (with email.sent); a Send event would only
  // repeat it with a write expected to fail. The configuration set does not subscribe to it.
  if (!event.outcome || event.outcome.event === 'sent') return 'ignored';
  if (!event.emailId || !event.accountId) return 'unknown_email'; // not sent by this service (no tags)
  // sent_at and the provider's id where the send worker did not record them: it died between SES's
  // answer and its write, and this event is how the email learns it was sent (first value wins).
  let outcome = { ...event.outcome, fields: { ...event.outcome.fields, sent_at: event.outcome.fields.sent_at ?? event.sentAt, provider_message_id: event.providerMessageId } };
  if (event.addressRefusal) {
    // Delivered first, refused later (an asynchronous bounce): a bounce after delivery, not a failure.
    const stored = await deps.emails.get(event.emailId);
    if (stored?.email.delivered_at) outcome = { ...outcome, event: 'bounced', status: 'bounced' };
  }
  const updated = await deps.emails.applyOutcome(event.emailId, event.accountId, outcome);
  if (!updated) return 'unknown_email';
  if (event.suppress) {
    await suppressAddresses(deps, { accountId: event.accountId, tenantId: updated.tenant_id ?? null, emails: event.suppress.emails, reason: event.suppress.reason });
  }
  // The webhook event, from the email as the write left it. Its id is derived from the email and type,
  // so a duplicate notification (SNS and SQS are at-least-once) is delivered once.
  const extra = outcome.event === 'complained' ? { complained_at: outcome.at } : {};
  // sent_at came from this provider event (see above): email.sent was never published; publish it first
  // (its id is the same as the worker's would have been, so it is delivered once either way).
  const sentHere = updated.sent_at === event.sentAt;
  await deps.events.publish([
    ...(sentHere ? [emailEvent(updated, 'email.sent', event.sentAt)] : []),
    emailEvent(updated, EVENT_TYPE[outcome.event], outcome.at, { occurrence: outcome.event === 'delivery_delayed' ? outcome.at : undefined, extra }),
  ]);
  return 'applied';
}
