/**
 * The send's accept step (its second round trip): the email with its capped usage reservations (the
 * account's and the tenant's ramp and daily_limit, ./send-limits.ts: the tighter wins, nothing overshoots) and its
 * idempotency record in ONE transaction (shared/adapters/store/emails/accept.ts), answering 429 plan_limit when a limit
 * is reached. A scheduled email gets its one-time schedule first and loses it when the write is refused
 * or fails, so no write is ever undone. The table's stream then hands a queued email to the send queue
 * and publishes email.scheduled for a scheduled one (the outbox: shared/usecases/delivery/relay-outbox.ts).
 */
import { effectiveRetention, objectRetentionDays, retentionKeyPrefix } from '../../domain/accounts/retention';
import { AppError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import type { AcceptOutcome } from '../../adapters/store/emails/accept-request';
import { EmailExists, IdempotencyKeyTaken } from './idempotency';
import { limitedTenantOf } from '../access/visibility';
import { storeContent } from './content';
import type { PolicyOutcome } from './check-policy';
import type { ResolvedSendContext } from './resolved-send-context';
import type { SendDeps, SendOptions, SendResult } from './send-deps';
import type { EarlyUpload } from './early-body';
import { limitReachedError, type SendLimits } from './send-limits';

/**
 * The bodies and attachments stored under the account's retention class (docs/retention.md: a scheduled
 * email's wait included), then the email with its reservations and idempotency record in one transaction.
 */
async function storeAndAccept(
  deps: SendDeps,
  facts: ResolvedSendContext,
  email: PolicyOutcome['email'],
  limits: SendLimits,
  when: { now: Date; at: Date | null },
  options: SendOptions,
  result: SendResult,
  early: EarlyUpload | undefined,
): Promise<AcceptOutcome> {
  const { principal } = facts;
  const { now, at } = when;
  const { reservations } = limits;
  const keepDays = effectiveRetention(principal.account.plan, principal.account.retention).emails_days;
  const keyPrefix = retentionKeyPrefix(objectRetentionDays(keepDays, at ?? now, now));
  const content = await storeContent(
    deps,
    { accountId: principal.account.id, limitedTenant: limitedTenantOf(principal), keyPrefix },
    email.id,
    facts.request,
    options.mime,
    early,
  );
  if (content.attachments) email.attachments = content.attachments;
  const { idempotency } = options;
  return deps.emails.accept({
    email,
    body: content.body,
    ...(content.mime ? { mime: content.mime } : {}),
    count: facts.recipients.addresses.length,
    freshId: options.emailId === undefined,
    retentionDays: keepDays,
    ...(at ? { scheduleVersion: 1 } : {}),
    capped: reservations.filter((r) => r.limit !== null),
    uncapped: reservations.filter((r) => r.limit === null),
    idempotency: idempotency
      ? {
          accountId: principal.account.id,
          key: idempotency.key,
          record: { fingerprint: idempotency.fingerprint, status: 200, body: result, created_at: now.toISOString() },
          now,
        }
      : undefined,
  });
}

export async function acceptEmail(
  deps: SendDeps,
  facts: ResolvedSendContext,
  { email }: PolicyOutcome,
  limits: SendLimits,
  when: { now: Date; at: Date | null },
  options: SendOptions,
  early?: EarlyUpload,
): Promise<SendResult> {
  const { at } = when;
  const count = facts.recipients.addresses.length;
  const result: SendResult = { id: email.id, status: at ? 'scheduled' : 'sent' };
  if (at) await schedule(deps, email.id, at);
  const unschedule = async () => {
    if (at) await deps.scheduler.remove(email.id).catch(() => undefined);
  };
  let outcome: AcceptOutcome;
  try {
    outcome = await storeAndAccept(deps, facts, email, limits, when, options, result, early);
  } catch (error) {
    await unschedule();
    if (early) early.used = false; // no email names it: the send deletes it
    if (error instanceof AppError) throw error; // a refused attachment (413/422), not an outage
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  if (outcome.kind !== 'accepted') {
    // An existing email of the same id keeps its schedule (the same name: the upsert above left it as it was).
    if (outcome.kind !== 'email_exists') await unschedule();
    if (early) early.used = false;
  }
  if (outcome.kind === 'limit_reached') throw limitReachedError(deps.dashboardUrl, facts, limits, outcome.reservation, outcome.used, count);
  if (outcome.kind === 'idempotency_taken') throw new IdempotencyKeyTaken();
  if (outcome.kind === 'email_exists') throw new EmailExists(email.id);
  // A scheduled send whose tenant began its deletion meanwhile: as if the tenant had not been found.
  if (outcome.kind === 'tenant_gone') throw new NotFoundError('Tenant', email.tenant ?? '');
  return result;
}

/**
 * A scheduled email's schedule, created before the email is stored: if the write then fails or is
 * refused, the schedule is removed (and a firing that finds no email is skipped); if it is lost, the
 * reconciler sends the email when it is late. 503 when the scheduler is down: nothing stored.
 */
async function schedule(deps: Pick<SendDeps, 'scheduler'>, emailId: string, at: Date): Promise<void> {
  try {
    await deps.scheduler.upsert(emailId, at, 1);
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be scheduled. Nothing was stored or sent; retry with the same request.', {
      cause: error,
    });
  }
}
