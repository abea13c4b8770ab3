/**
 * The send core: the one door every channel goes through (POST /emails and its batch, resend, and later
 * the SMTP relay and automation steps). In order:
 *  1. read what the send depends on in ONE round trip (shared/store/send-context.ts): the caller's key
 *     and account when not resolved yet, the sender domain's claim, suppressions and opt-outs, the
 *     idempotency record;
 *  2. who: a live key of a live account with scope emails:send (401/403); a named tenant (403/404);
 *  3. idempotency: a stored answer for the key is replayed (409 for another request under the key);
 *  4. policy (./policy.ts): sender, recipients, suppressions and category opt-outs (403/422; a refused
 *     send is kept as a failed email and fires email.suppressed);
 *  5. content (./content.ts): large bodies and attachments to the blob store;
 *  6. accept (second round trip): the email with its capped usage reservations and idempotency record in
 *     one transaction (429 plan_limit). The table's stream hands a queued email to the send queue (the
 *     outbox: nothing on the request path can strand it); a scheduled one gets its one-time schedule here,
 *     and if that fails everything is undone (503).
 */
import { usageReservations } from '../../domain/accounts/limits';
import { domainOf, formatMailbox } from '../../domain/emails/address';
import type { Email } from '../../domain/emails/email';
import type { Idempotency } from '../../domain/emails/idempotency';
import { checkScheduleTime } from '../../domain/emails/schedule';
import type { SendRequest } from '../../domain/emails/send-request';
import { AppError, ServiceUnavailableError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import type { OptOutCategory } from '../../domain/suppressions/reasons';
import type { BlobStore, Clock, EmailScheduler, EventPublisher } from '../../ports';
import type { ApiKeyRepository } from '../../store/api-keys';
import type { AttachmentUploadRepository } from '../../store/attachment-uploads';
import type { DomainRepository } from '../../store/domains';
import type { EmailRepository } from '../../store/emails';
import type { IdempotencyStore } from '../../store/idempotency';
import type { SendContext, SendContextReader } from '../../store/send-context';
import type { UsageLedger } from '../../store/usage';
import { invalidApiKey, rememberedAccountOf, rememberKey } from '../authenticate';
import { IdempotencyKeyTaken, withIdempotency } from '../idempotency';
import type { Principal } from '../principal';
import { resolveTenant, type TenantScopeDeps } from '../tenant-scope';
import { storeContent } from './content';
import { blockedError, blockedReason, checkRecipients, checkSender, checkSendScope, findBlocked, limitError, recipientAddresses, type Blocked, type SenderDomainFacts } from './policy';

export interface SendDeps {
  sendContext: Pick<SendContextReader, 'read'>;
  tenants: TenantScopeDeps['tenants'];
  emails: Pick<EmailRepository, 'accept' | 'create'>;
  apiKeys: Pick<ApiKeyRepository, 'findByHash'>;
  domains: Pick<DomainRepository, 'get'>;
  usage: Pick<UsageLedger, 'release'>;
  idempotency: Pick<IdempotencyStore, 'get' | 'deleteItem'>;
  scheduler: EmailScheduler;
  events: EventPublisher;
  blobs: BlobStore;
  attachmentUploads?: Pick<AttachmentUploadRepository, 'get'>;
  clock: Clock;
  sandboxDomain: string;
  dashboardUrl: string;
}

/** Who sends: already resolved (batch, resend, SMTP AUTH), or an API key to resolve in the send's first read. */
export type SendCaller = { principal: Principal } | { apiKeyHash: string };

export interface SendResult {
  id: string;
  status: 'sent' | 'scheduled';
}

export interface SendOptions {
  idempotency?: Idempotency;
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

/** The account a caller's key belongs to: remembered, or read first (the first request of a key in this process). */
async function accountIdOf(deps: SendDeps, caller: SendCaller): Promise<string> {
  if ('principal' in caller) return caller.principal.account.id;
  const remembered = rememberedAccountOf(caller.apiKeyHash);
  if (remembered) return remembered;
  const key = await deps.apiKeys.findByHash(caller.apiKeyHash);
  if (!key) throw invalidApiKey();
  return key.account_id;
}

/** The sender domain's facts; claims written before they carried the status are completed from the domain. */
async function senderDomainOf(deps: SendDeps, context: SendContext): Promise<SenderDomainFacts | null> {
  const claim = context.domain;
  if (!claim) return null;
  if (claim.status !== undefined) return claim as SenderDomainFacts;
  const stored = await deps.domains.get(claim.id);
  return stored ? { id: stored.domain.id, account_id: stored.domain.account_id, status: stored.domain.status } : null;
}

/** A blocked send is kept as a failed email (its id is in the error) and fires email.suppressed. */
async function refuseBlocked(deps: SendDeps, request: SendRequest, email: Email, blocked: Blocked): Promise<never> {
  const refused: Email = { ...email, status: 'failed', last_event: 'suppressed', bounce_reason: blockedReason(blocked), scheduled_at: null };
  // The email.suppressed event's details travel with the item: the outbox publishes it from the write.
  const details = blocked.suppressed.length
    ? { suppressed: blocked.suppressed, reason: 'suppressed' }
    : { category_unsubscribed: blocked.optedOut, category: blocked.category, reason: 'category_unsubscribed' };
  try {
    await deps.emails.create(refused, { inline: { html: request.html, text: request.text } }, { suppressed_event: details });
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  throw blockedError(blocked, email.id);
}

export async function sendEmail(deps: SendDeps, caller: SendCaller, request: SendRequest, options: SendOptions = {}): Promise<SendResult> {
  const now = deps.clock.now();
  const at = request.scheduled_at === undefined ? null : checkScheduleTime(request.scheduled_at, now);
  const fromDomain = domainOf(request.from.email);
  const recipients = recipientAddresses([request.to, request.cc ?? [], request.bcc ?? []]);
  const category = request.category ?? 'transactional';

  // 1. One round trip for everything the decision needs.
  const accountId = await accountIdOf(deps, caller);
  const context = await deps.sendContext.read({
    accountId,
    apiKeyHash: 'principal' in caller ? undefined : caller.apiKeyHash,
    fromDomain: fromDomain === deps.sandboxDomain ? undefined : fromDomain,
    recipients,
    tenantId: null,
    optOutCategory: category === 'transactional' ? undefined : (category as OptOutCategory),
    idempotencyKey: options.idempotency?.key,
    now,
  });
  // 2. Who.
  const principal = 'principal' in caller ? caller.principal : rememberKey(context.key, caller.apiKeyHash, context.account);
  checkSendScope(principal.credential);
  await resolveTenant(deps, principal, request.tenant);

  // 3. Idempotency, then 4-6.
  return withIdempotency(
    deps,
    principal.account.id,
    options.idempotency,
    now,
    async () => {
      const { sandbox } = checkSender(principal, fromDomain, deps.sandboxDomain, fromDomain === deps.sandboxDomain ? null : await senderDomainOf(deps, context));
      checkRecipients(principal, sandbox, recipients);
      const id = newId('msg', now.getTime());
      const email = newEmail(principal, request, id, now, at);
      const blocked = findBlocked(category, context.suppressed, context.optedOut);
      if (blocked) await refuseBlocked(deps, request, email, blocked);
      return accept(deps, principal, request, email, { sandbox, at, count: recipients.length, now, idempotency: options.idempotency });
    },
    options.idempotency ? context.idempotency : undefined,
  );
}

async function accept(
  deps: SendDeps,
  principal: Principal,
  request: SendRequest,
  email: Email,
  { sandbox, at, count, now, idempotency }: { sandbox: boolean; at: Date | null; count: number; now: Date; idempotency?: Idempotency },
): Promise<SendResult> {
  const result: SendResult = { id: email.id, status: at ? 'scheduled' : 'sent' };
  const reservations = usageReservations(principal.account.plan, sandbox, now);
  // A scheduled email's schedule is created before the email is stored: if the write then fails or is
  // refused, the schedule is removed (and a firing that finds no email is skipped); if it is lost, the
  // reconciler sends the email when it is late. No write is ever undone.
  if (at) {
    try {
      await deps.scheduler.upsert(email.id, at, 1);
    } catch (error) {
      throw new ServiceUnavailableError('The email could not be scheduled. Nothing was stored or sent; retry with the same request.', { cause: error });
    }
  }
  const unschedule = async () => {
    if (at) await deps.scheduler.remove(email.id).catch(() => undefined);
  };
  let outcome;
  try {
    const content = await storeContent(deps, principal.account.id, email.id, request);
    if (content.attachments) email.attachments = content.attachments;
    outcome = await deps.emails.accept({
      email,
      body: content.body,
      count,
      ...(at ? { scheduleVersion: 1 } : {}),
      capped: reservations.filter((r) => r.limit !== null),
      uncapped: reservations.filter((r) => r.limit === null),
      idempotency: idempotency
        ? { accountId: principal.account.id, key: idempotency.key, record: { fingerprint: idempotency.fingerprint, status: 200, body: result, created_at: now.toISOString() }, now }
        : undefined,
    });
  } catch (error) {
    await unschedule();
    if (error instanceof AppError) throw error; // a refused attachment (413/422), not an outage
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  if (outcome.kind !== 'accepted') await unschedule();
  if (outcome.kind === 'limit_reached') throw limitError(principal, outcome.reservation, outcome.used, count, deps.dashboardUrl);
  if (outcome.kind === 'idempotency_taken') throw new IdempotencyKeyTaken();
  // The outbox (the table's stream) hands a queued email to the send queue and publishes email.scheduled
  // for a scheduled one (shared/usecases/relay-outbox.ts).
  return result;
}
