/**
 * The send use case behind POST /emails (and, later, the SMTP relay). In order:
 *  1. the sender: the sandbox domain, or a domain of this account that is verified (403 otherwise);
 *  2. the key's allowed_domains (403 domain_not_allowed);
 *  3. recipients: the sandbox sender, and any sender until production is unlocked (a verified domain
 *     plus a payment method), may only reach the account email (403 recipient_not_allowed);
 *  4. suppressions and category opt-outs refuse the send (422; the refused email is kept as failed);
 *  5. the email is written with its usage reservations (plan and sandbox counters, conditional ADDs)
 *     and its idempotency record in one transaction (429 plan_limit when a limit would be exceeded;
 *     a concurrent request with the same key makes this one replay the winner's answer);
 *  6. it is handed to the send queue, or to a one-time schedule when scheduled_at is given; if that
 *     fails the email, its reservations and its idempotency record are undone (503).
 */
import { usageReservations, type UsageReservation } from '../domain/accounts/limits';
import { upgradeUrl } from '../domain/accounts/plans';
import { domainOf, formatMailbox, parseMailbox } from '../domain/emails/address';
import { toPublicEmail, type Email, type EmailBody } from '../domain/emails/email';
import type { SendRequest } from '../domain/emails/send-request';
import { AppError, ConflictError, ForbiddenError, ServiceUnavailableError } from '../domain/errors';
import { checkScheduleTime } from '../domain/emails/schedule';
import { newId } from '../domain/ids';
import type { BlobStore, Clock, EmailScheduler, EventPublisher, SendQueue } from '../ports';
import { emailEvent } from '../domain/webhooks/email-event-data';
import type { ServiceEvent } from '../domain/webhooks/event';
import { logError } from '../log';
import type { IdempotencyStore } from '../store/idempotency';
import type { CategoryOptOutRepository } from '../store/category-opt-outs';
import type { Idempotency } from '../domain/emails/idempotency';
import type { DomainRepository } from '../store/domains';
import { IdempotencyKeyTaken, UsageLimitReached, type EmailRepository, type StoredBody } from '../store/emails';
import { countAtFailure, type UsageLedger } from '../store/usage';
import type { SuppressionRepository } from '../store/suppressions';
import type { Principal } from './principal';
import { storeAttachments } from './email-attachments';

/** Bodies above this size (bytes of JSON) go to the blob store, far below DynamoDB's 400 KB item limit. */
export const INLINE_BODY_LIMIT = 64 * 1024;

export interface SendEmailDeps {
  emails: EmailRepository;
  domains: DomainRepository;
  suppressions: SuppressionRepository;
  usage: UsageLedger;
  idempotency: IdempotencyStore;
  categoryOptOuts: CategoryOptOutRepository;
  scheduler: EmailScheduler;
  events: EventPublisher;
  sendQueue: SendQueue;
  blobs: BlobStore;
  clock: Clock;
  sandboxDomain: string;
  dashboardUrl: string;
}

export interface SendResult {
  id: string;
  status: 'sent' | 'scheduled';
}

function addressesOf(list: string[]): string[] {
  return [...new Set(list.map((entry) => (parseMailbox(entry)?.email ?? entry).toLowerCase()))];
}

/** Rules 1-2: returns whether the sender is the sandbox sender. */
async function authoriseSender(deps: SendEmailDeps, principal: Principal, fromDomain: string): Promise<{ sandbox: boolean }> {
  const allowed = principal.key.allowed_domains;
  if (allowed && !allowed.includes(fromDomain)) {
    throw new ForbiddenError(`This API key may only send from ${allowed.join(', ')}.`, 'domain_not_allowed', {
      details: { domain: fromDomain, allowed_domains: allowed },
      hint: 'Use a key allowed for this domain, or send from one of its allowed domains.',
    });
  }
  if (fromDomain === deps.sandboxDomain) return { sandbox: true };
  const stored = await deps.domains.findOwned(principal.account.id, fromDomain);
  if (!stored) {
    throw new ForbiddenError(`The domain ${fromDomain} is not verified for this account.`, 'domain_not_verified', {
      details: { domain: fromDomain },
      hint: `Add ${fromDomain} (POST /domains), publish its DNS records and verify it, or send from the sandbox sender <anything>@${deps.sandboxDomain} to your account email.`,
    });
  }
  if (stored.domain.status !== 'verified') {
    throw new ForbiddenError(`The domain ${fromDomain} is added but not verified.`, 'domain_not_verified', {
      details: { domain: fromDomain, domain_id: stored.domain.id, status: stored.domain.status },
      hint: `Publish the records of GET /domains/${stored.domain.id}, then POST /domains/${stored.domain.id} {"action": "verify"}.`,
    });
  }
  return { sandbox: false };
}

/** Rule 3. */
function authoriseRecipients(principal: Principal, sandbox: boolean, recipients: string[]): void {
  if (!sandbox && principal.account.payment_method) return;
  const refused = recipients.filter((address) => address !== principal.account.email);
  if (refused.length === 0) return;
  if (sandbox) {
    throw new ForbiddenError(`The sandbox sender can only send to the account email (${principal.account.email}).`, 'recipient_not_allowed', {
      details: { reason: 'sandbox_sender', refused_recipients: refused, allowed_recipients: [principal.account.email] },
      hint: 'Verify a domain and add a payment method to send to anyone.',
    });
  }
  throw new ForbiddenError(`Production sending is not unlocked yet: until then you can only send to the account email (${principal.account.email}).`, 'recipient_not_allowed', {
    details: { reason: 'production_not_unlocked', refused_recipients: refused, allowed_recipients: [principal.account.email] },
    hint: 'Production sending unlocks with a verified domain and a payment method on file.',
  });
}

function limitError(deps: SendEmailDeps, principal: Principal, reservation: UsageReservation, used: number | undefined, requested: number): AppError {
  const what = reservation.scope === 'SANDBOX' ? 'sandbox sender' : `${principal.account.plan} plan`;
  const period = reservation.period === 'DAY' ? 'daily' : 'monthly';
  return new AppError(429, 'plan_limit', `The ${what}'s ${period} limit of ${reservation.limit} emails would be exceeded; it resets at ${reservation.resetsAt}.`, {
    details: {
      limit: reservation.limit,
      period: reservation.period === 'DAY' ? 'day' : 'month',
      scope: reservation.scope === 'SANDBOX' ? 'sandbox' : 'plan',
      plan: principal.account.plan,
      ...(used === undefined ? {} : { used }),
      requested,
      resets_at: reservation.resetsAt,
    },
    hint: reservation.scope === 'SANDBOX' ? 'Verify your own domain to send beyond the sandbox caps.' : 'Upgrade your plan to send more.',
    upgradeUrl: upgradeUrl(deps.dashboardUrl),
  });
}

async function storeBody(deps: SendEmailDeps, emailId: string, body: EmailBody): Promise<StoredBody> {
  const json = JSON.stringify(body);
  if (Buffer.byteLength(json, 'utf8') <= INLINE_BODY_LIMIT) return { inline: body };
  const blobKey = `bodies/${emailId}.json`;
  await deps.blobs.put(blobKey, json, 'application/json');
  return { blobKey };
}

export interface SendOptions {
  idempotency?: Idempotency;
}

/** Rule 9: a live record for the key replays its response; another body under the same key is a conflict. */
async function replayIdempotent(deps: SendEmailDeps, principal: Principal, idempotency: Idempotency, now: Date): Promise<SendResult | null> {
  const record = await deps.idempotency.get(principal.account.id, idempotency.key, now);
  if (!record) return null;
  if (record.fingerprint !== idempotency.fingerprint) {
    throw new ConflictError('This Idempotency-Key was already used with a different request body.', 'idempotency_conflict', {
      details: { idempotency_key: idempotency.key, first_used_at: record.created_at },
      hint: 'Use a new key for a new request; reuse a key only to retry the very same request.',
    });
  }
  return record.body as SendResult;
}

function scheduledTime(request: SendRequest, now: Date): Date | null {
  return request.scheduled_at === undefined ? null : checkScheduleTime(request.scheduled_at, now);
}

function newEmail(principal: Principal, request: SendRequest, id: string, now: Date, at: Date | null): Email {
  return {
    id,
    account_id: principal.account.id,
    from: formatMailbox(request.from),
    to: request.to,
    cc: request.cc ?? [],
    bcc: request.bcc ?? [],
    reply_to: request.reply_to ?? [],
    subject: request.subject,
    status: at ? 'scheduled' : 'queued',
    last_event: at ? 'scheduled' : 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: request.tags ?? [],
    headers: request.headers ?? {},
    scheduled_at: at ? at.toISOString() : null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: now.toISOString(),
    tenant: null,
    provider_message_id: null,
  };
}

/**
 * Events of the API path are published after the email is stored, with a few quick retries; a failure
 * after those is logged and does not fail the request (the email exists and will be sent). Not an
 * outbox: an SQS outage longer than the retries loses the event (documented).
 */
async function publishQuietly(deps: SendEmailDeps, events: ServiceEvent[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.events.publish(events);
      return;
    } catch (error) {
      if (attempt >= 3) {
        logError('event publish failed', error, { event_ids: events.map((event) => event.id) });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Who of the recipients is suppressed, or opted out of the email's category (read in parallel). */
async function blockedRecipients(deps: SendEmailDeps, principal: Principal, request: SendRequest, recipients: string[]) {
  const category = request.category ?? 'transactional';
  const [suppressed, optedOut] = await Promise.all([
    deps.suppressions.findSuppressed(principal.account.id, null, recipients),
    category === 'transactional' ? Promise.resolve([]) : deps.categoryOptOuts.findCategoryOptOuts(principal.account.id, null, recipients, category),
  ]);
  return { category, suppressed, optedOut: suppressed.length ? [] : optedOut };
}

/**
 * Rule 6: suppressed recipients (global list) or category opt-outs refuse the send with 422. The
 * refused send is kept as a `failed` email with last_event `suppressed` (its id is in the error), so it
 * shows in the log and, with webhooks, fires email.suppressed.
 */
async function refuseSuppressed(
  deps: SendEmailDeps,
  request: SendRequest,
  email: Email,
  { category, suppressed, optedOut }: Awaited<ReturnType<typeof blockedRecipients>>,
): Promise<void> {
  if (suppressed.length === 0 && optedOut.length === 0) return;
  const reason = suppressed.length ? `suppressed: ${suppressed.join(', ')}` : `unsubscribed from ${category} email: ${optedOut.join(', ')}`;
  const refused: Email = { ...email, status: 'failed', last_event: 'suppressed', bounce_reason: reason, scheduled_at: null };
  try {
    await deps.emails.create(refused, { inline: { html: request.html, text: request.text } });
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  await publishQuietly(deps, [
    emailEvent(refused, 'email.suppressed', refused.created_at, {
      extra: suppressed.length ? { suppressed, reason: 'suppressed' } : { category_unsubscribed: optedOut, category, reason: 'category_unsubscribed' },
    }),
  ]);
  if (suppressed.length) {
    throw new AppError(422, 'validation_error', `${suppressed.length === 1 ? 'A recipient is' : 'Some recipients are'} on the suppression list: ${suppressed.join(', ')}.`, {
      details: { suppressed, email_id: email.id },
      hint: 'Remove them from the request, or from the suppression list (DELETE /suppressions?email=...) if they asked to receive mail again.',
    });
  }
  throw new AppError(422, 'validation_error', `${optedOut.length === 1 ? 'A recipient has' : 'Some recipients have'} unsubscribed from ${category} email: ${optedOut.join(', ')}.`, {
    details: { category_unsubscribed: optedOut, category, email_id: email.id },
    hint: 'Transactional email is not affected by category opt-outs; product and newsletter email respects them.',
  });
}

export async function sendEmail(deps: SendEmailDeps, principal: Principal, request: SendRequest, options: SendOptions = {}): Promise<SendResult> {
  const now = deps.clock.now();
  if (options.idempotency) {
    const replay = await replayIdempotent(deps, principal, options.idempotency, now);
    if (replay) return replay;
  }
  const at = scheduledTime(request, now);
  const fromDomain = domainOf(request.from.email);
  const recipients = addressesOf([...request.to, ...(request.cc ?? []), ...(request.bcc ?? [])]);
  // The sender's domain and the recipients' suppressions are independent reads: one round trip.
  const [{ sandbox }, blocked] = await Promise.all([authoriseSender(deps, principal, fromDomain), blockedRecipients(deps, principal, request, recipients)]);
  authoriseRecipients(principal, sandbox, recipients);

  const id = newId('msg', now.getTime());
  const email = newEmail(principal, request, id, now, at);
  await refuseSuppressed(deps, request, email, blocked);

  const reservations = usageReservations(principal.account.plan, sandbox, now);
  const count = recipients.length;
  const result: SendResult = { id, status: at ? 'scheduled' : 'sent' };
  const idempotency = options.idempotency;
  try {
    const body = await storeBody(deps, id, { html: request.html, text: request.text });
    // Attachment bytes go to the blob store; the item keeps their metadata only (400 KB item limit).
    if (request.attachments?.length) email.attachments = await storeAttachments(deps.blobs, id, request.attachments);
    await deps.emails.create(email, body, {
      internals: {
        ...(at ? { schedule_version: 1 } : {}),
        usage_reserved: { entries: reservations.map(({ scope, period, periodValue }) => ({ scope, period, periodValue })), count },
      },
      reservations: deps.usage.reserve(principal.account.id, reservations, count),
      idempotency: idempotency
        ? deps.idempotency.putItem(principal.account.id, idempotency.key, { fingerprint: idempotency.fingerprint, status: 200, body: result, created_at: now.toISOString() }, now)
        : undefined,
    });
  } catch (error) {
    if (error instanceof UsageLimitReached) {
      throw limitError(deps, principal, reservations[error.reservationIndex]!, countAtFailure(error.reason), count);
    }
    if (error instanceof IdempotencyKeyTaken && idempotency) {
      // A concurrent request with the same key won: answer as it did.
      const replay = await replayIdempotent(deps, principal, idempotency, now);
      if (replay) return replay;
    }
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  try {
    if (at) await deps.scheduler.upsert(id, at, 1);
    else await deps.sendQueue.enqueue({ email_id: id });
  } catch (error) {
    const undo = [...deps.usage.release(principal.account.id, reservations, count), ...(idempotency ? [deps.idempotency.deleteItem(principal.account.id, idempotency.key)] : [])];
    await deps.emails.deleteUnsent(id, at ? 'scheduled' : 'queued', undo).catch(() => undefined);
    throw new ServiceUnavailableError(`The email could not be ${at ? 'scheduled' : 'queued for delivery'}. Nothing was sent; retry with the same request.`, { cause: error });
  }
  if (at) await publishQuietly(deps, [emailEvent(email, 'email.scheduled', email.created_at)]);
  return result;
}

export async function getEmail(deps: { emails: EmailRepository }, principal: Principal, emailId: string) {
  const stored = await deps.emails.get(emailId);
  if (!stored || stored.email.account_id !== principal.account.id) return null;
  return toPublicEmail(stored.email);
}
