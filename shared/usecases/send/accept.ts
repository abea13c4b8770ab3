/**
 * The send core: the one door every channel goes through (POST /emails and its batch, resend, the SMTP
 * relay (a raw MIME message: SendOptions.mime), and later automation steps). In order:
 *  1. read what the send depends on in ONE round trip (shared/store/send-context.ts): the caller's key
 *     and account when not resolved yet, the sender domain's claim, suppressions and opt-outs, the
 *     idempotency record;
 *  2. who: a live key of a live account with scope emails:send (401/403); the send's tenant (named, the
 *     key's, or the from domain's: ./tenant-policy.ts; read in the same batch: ./tenant-read.ts);
 *  3. idempotency: a stored answer for the key is replayed (409 for another request under the key);
 *  4. policy (./policy.ts, ./tenant-policy.ts): the tenant may send (paused, stream policy), sender
 *     (verified, owned by this tenant or the account), recipients, suppressions and category opt-outs of
 *     the account and the tenant (403/422; a refused send is kept as a failed email and fires
 *     email.suppressed);
 *  5. content (./content.ts): large bodies and attachments to the blob store;
 *  6. accept (second round trip): the email with its capped usage reservations and idempotency record in
 *     one transaction (429 plan_limit). The table's stream hands a queued email to the send queue (the
 *     outbox: nothing on the request path can strand it); a scheduled one gets its one-time schedule here,
 *     and if that fails everything is undone (503).
 */
import { usageReservations } from '../../domain/accounts/limits';
import { domainOf, formatMailbox, isBareLocalPart, type Mailbox } from '../../domain/mail/address';
import type { Email } from '../../domain/emails/email';
import type { Idempotency } from '../../domain/emails/idempotency';
import { checkScheduleTime } from '../../domain/emails/schedule';
import type { ParsedSendRequest, SendRequest } from '../../domain/emails/send-request';
import { AppError, NotFoundError, ServiceUnavailableError } from '../../domain/errors';
import { dailyRampLimitError, parseTenantScope, tenantReservations } from '../../domain/tenants/limits';
import { rampStreamOf, type RampState, type RampStream } from '../../domain/tenants/ramp';
import type { Tenant } from '../../domain/tenants/tenant';
import type { StoredTenant } from '../../store/tenants';
import { rampForToday, type TenantRampDeps } from '../tenant-ramp';
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
import { invalidApiKey, invalidSmtpCredential, rememberedAccountOf, rememberKey, type SecretKind } from '../authenticate';
import { IdempotencyKeyTaken, withIdempotency } from '../idempotency';
import type { Principal } from '../principal';
import { checkTenantAllowed, checkTenantsEnabled, type TenantScopeDeps } from '../tenant-scope';
import { storeBody, storeContent } from './content';
import { completeRequest, type TemplateContentDeps } from './template-content';
import { limitedTenantOf } from '../visibility';
import { checkDomainOwner, checkTenantMaySend, chooseSendTenant, completeSender, type ClaimOwner } from './tenant-policy';
import { keyTenantOf, planTenantRead, rememberDomainTenant, rememberKeyTenant, rememberTenant, tenantInContext, type TenantReadPlan } from './tenant-read';
import { blockedError, blockedReason, checkRecipients, checkSender, checkSendScope, findBlocked, limitError, recipientAddresses, type Blocked, type SenderDomainFacts } from './policy';

export interface SendDeps extends TemplateContentDeps {
  sendContext: Pick<SendContextReader, 'read'>;
  tenants: TenantRampDeps['tenants'];
  emails: Pick<EmailRepository, 'accept' | 'create'>;
  apiKeys: Pick<ApiKeyRepository, 'findByHash'>;
  domains: Pick<DomainRepository, 'get'>;
  usage: Pick<UsageLedger, 'current'>;
  tenantStats: TenantRampDeps['tenantStats'];
  idempotency: Pick<IdempotencyStore, 'get'>;
  scheduler: EmailScheduler;
  events: EventPublisher;
  blobs: BlobStore;
  attachmentUploads?: Pick<AttachmentUploadRepository, 'get'>;
  clock: Clock;
  sandboxDomain: string;
  dashboardUrl: string;
}

/**
 * Who sends: already resolved (batch, resend), or a secret's hash to resolve (again) in the send's first
 * read: an API key (`kind` absent) or an SMTP credential (the relay re-checks it for every message, so a
 * revoked credential stops an open session's next message at once).
 */
export type SendCaller = { principal: Principal } | { apiKeyHash: string; kind?: SecretKind };

export interface SendResult {
  id: string;
  status: 'sent' | 'scheduled';
}

export interface SendOptions {
  idempotency?: Idempotency;
  /**
   * A raw MIME message to deliver as written (the SMTP relay): `request` then carries what was read from
   * its headers (from, recipients, subject, tags, ...) and no html/text; the message goes to the blob store.
   */
  mime?: { raw: Buffer };
}

function newEmail(principal: Principal, request: SendRequest, from: Mailbox, tenant: Tenant | null, category: Email['category'], id: string, now: Date, at: Date | null): Email {
  return {
    id,
    account_id: principal.account.id,
    from: formatMailbox(from),
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
    tenant: tenant?.external_id ?? null,
    tenant_id: tenant?.id ?? null,
    category,
    provider_message_id: null,
    ...(request.unsubscribe ? { unsubscribe: true } : {}),
    ...(request.from_template ? { template: request.from_template } : {}),
  };
}

/** The account a caller's key belongs to: remembered, or read first (the first request of a key in this process). */
async function accountIdOf(deps: SendDeps, caller: SendCaller): Promise<string> {
  if ('principal' in caller) return caller.principal.account.id;
  const remembered = rememberedAccountOf(caller.apiKeyHash);
  if (remembered) return remembered;
  const key = await deps.apiKeys.findByHash(caller.apiKeyHash);
  if (!key) throw caller.kind === 'smtp' ? invalidSmtpCredential() : invalidApiKey();
  rememberKeyTenant(caller.apiKeyHash, key.tenant);
  return key.account_id;
}

/** The sender domain's facts; claims written before they carried the status are completed from the domain. */
async function senderDomainOf(deps: SendDeps, claim: SendContext['domain']): Promise<SenderDomainFacts | null> {
  if (!claim) return null;
  if (claim.status !== undefined) return claim as SenderDomainFacts;
  const stored = await deps.domains.get(claim.id);
  return stored ? { id: stored.domain.id, account_id: stored.domain.account_id, status: stored.domain.status } : null;
}

/**
 * The send's tenant (spec rule 12 and Authentication 3, ./tenant-policy.ts): named (403
 * tenants_not_enabled, 404, 403 for a key limited to another), else the key's, else the from domain's.
 * Found in the context read when planned right; otherwise looked up. `claimTenant` says whether the
 * domain's tenant still counts (a tenant being deleted gives its domains back to the account).
 */
async function sendTenantOf(
  deps: SendDeps,
  principal: Principal,
  named: string | undefined,
  context: SendContext,
  plan: TenantReadPlan,
  claim: ClaimOwner | null,
): Promise<{ tenant: StoredTenant | null; claim: ClaimOwner | null }> {
  const accountId = principal.account.id;
  const choice = chooseSendTenant(named, principal.credential.tenant, accountId, claim);
  if (choice.kind === 'none') return { tenant: null, claim };
  if (choice.kind === 'named') checkTenantsEnabled(principal);
  const ref = choice.kind === 'named' ? choice.ref : choice.id;
  const found = tenantInContext(context, plan, accountId, choice);
  let tenant: StoredTenant | null = found.kind === 'found' ? found.stored : null;
  if (found.kind === 'not_read') {
    const stored = await deps.tenants.find(accountId, ref);
    tenant = stored && !stored.deleting ? stored : null;
  }
  if (!tenant) {
    if (choice.kind === 'domain') return { tenant: null, claim: claim && { ...claim, tenant_id: null } };
    throw new NotFoundError('Tenant', ref);
  }
  checkTenantAllowed(principal, tenant.tenant);
  rememberTenant(tenant.tenant);
  return { tenant, claim };
}

/** A blocked send is kept as a failed email (its id is in the error) and fires email.suppressed. */
async function refuseBlocked(deps: SendDeps, request: SendRequest, email: Email, blocked: Blocked): Promise<never> {
  const refused: Email = { ...email, status: 'failed', last_event: 'suppressed', bounce_reason: blockedReason(blocked), scheduled_at: null };
  // The email.suppressed event's details travel with the item: the outbox publishes it from the write.
  const details = blocked.suppressed.length
    ? { suppressed: blocked.suppressed, reason: 'suppressed' }
    : { category_unsubscribed: blocked.optedOut, category: blocked.category, reason: 'category_unsubscribed' };
  try {
    // Like an accepted email's, a large body goes to the blob store: inline, it could pass the 400 KB item limit.
    await deps.emails.create(refused, await storeBody(deps.blobs, email.id, { html: request.html, text: request.text }), { suppressed_event: details });
  } catch (error) {
    throw new ServiceUnavailableError('The email could not be stored. Nothing was sent; retry with the same request.', { cause: error });
  }
  throw blockedError(blocked, email.id);
}

/**
 * The request with its template rendered. A template problem (unknown, unpublished, a missing variable)
 * is a 400, answered only after the caller's key is checked: 401/403 before 400, as for every request.
 */
async function completeOrRefuse(deps: SendDeps, caller: SendCaller, accountId: string, parsed: ParsedSendRequest, now: Date): Promise<SendRequest> {
  try {
    return await completeRequest(deps, accountId, parsed);
  } catch (error) {
    if (!(error instanceof AppError) || 'principal' in caller) throw error;
    const context = await deps.sendContext.read({ accountId, apiKeyHash: caller.apiKeyHash, recipients: [], tenantId: null, now });
    checkSendScope(rememberKey(context.key, caller.apiKeyHash, context.account, caller.kind).credential);
    throw error;
  }
}

export async function sendEmail(deps: SendDeps, caller: SendCaller, parsed: ParsedSendRequest, options: SendOptions = {}): Promise<SendResult> {
  const now = deps.clock.now();
  const at = parsed.scheduled_at === undefined ? null : checkScheduleTime(parsed.scheduled_at, now);
  // The account first (known, remembered, or one read), then the template's published version (one read,
  // only for a template send): its from decides which domain claim the context read fetches.
  const accountId = await accountIdOf(deps, caller);
  const request = await completeOrRefuse(deps, caller, accountId, parsed, now);
  // A bare local part ("billing") takes its domain from the send's tenant (default_from_domain).
  const bare = isBareLocalPart(request.from);
  const givenDomain = bare ? null : domainOf(request.from.email);
  const recipients = recipientAddresses([request.to, request.cc ?? [], request.bcc ?? []]);
  const category = request.category ?? 'transactional';
  const optOutCategory = category === 'transactional' ? undefined : (category as OptOutCategory);
  const claimName = (domain: string | null) => (domain === null || domain === deps.sandboxDomain ? undefined : domain);

  // 1. One round trip for everything the decision needs, the send's tenant included (./tenant-read.ts).
  const plan = planTenantRead({
    accountId,
    named: request.tenant,
    keyTenantId: 'principal' in caller ? caller.principal.credential.tenant : keyTenantOf(caller.apiKeyHash),
    fromDomain: givenDomain,
  });
  const readDomain = givenDomain ?? plan.defaultFromDomain;
  const context = await deps.sendContext.read({
    accountId,
    apiKeyHash: 'principal' in caller ? undefined : caller.apiKeyHash,
    fromDomain: claimName(readDomain),
    recipients,
    tenantId: plan.tenantId,
    tenantExternalIds: plan.tenantExternalIds,
    tenantAliasIds: plan.tenantAliasIds,
    optOutCategory,
    idempotencyKey: options.idempotency?.key,
    now,
  });
  // 2. Who, and for which tenant.
  const principal = 'principal' in caller ? caller.principal : rememberKey(context.key, caller.apiKeyHash, context.account, caller.kind);
  if (!('principal' in caller)) rememberKeyTenant(caller.apiKeyHash, principal.credential.tenant);
  checkSendScope(principal.credential);
  const givenClaim = givenDomain !== null && context.domain ? context.domain : null;
  if (givenClaim && givenDomain && givenClaim.account_id === accountId) rememberDomainTenant(accountId, givenDomain, givenClaim.tenant_id);
  const { tenant: storedTenant, claim: ownerClaim } = await sendTenantOf(deps, principal, request.tenant, context, plan, givenClaim);
  const tenant = storedTenant?.tenant ?? null;
  const from = completeSender(request.from, tenant);
  const fromDomain = domainOf(from.email);

  // A plan that guessed wrong (or could not guess: the first send of a tenant in this process) reads
  // the tenant's lists, and the default domain's claim, once more.
  let claim = bare ? (fromDomain === readDomain ? context.domain : null) : context.domain;
  let { suppressed, optedOut } = context;
  const needClaim = bare && fromDomain !== readDomain && claimName(fromDomain) !== undefined;
  const needLists = (tenant?.id ?? null) !== plan.tenantId;
  if (needClaim || needLists) {
    const more = await deps.sendContext.read({ accountId, fromDomain: needClaim ? fromDomain : undefined, recipients, tenantId: tenant?.id ?? null, optOutCategory, now });
    if (needClaim) claim = more.domain;
    if (needLists) ({ suppressed, optedOut } = more);
  }
  const owner: ClaimOwner | null = bare ? claim : ownerClaim;

  // 3. Idempotency, then 4-6.
  return withIdempotency(
    deps,
    principal.account.id,
    options.idempotency,
    now,
    async () => {
      if (tenant) checkTenantMaySend(tenant, category);
      const isSandbox = fromDomain === deps.sandboxDomain;
      const { sandbox } = checkSender(principal, fromDomain, deps.sandboxDomain, isSandbox ? null : await senderDomainOf(deps, claim));
      if (!sandbox) checkDomainOwner(tenant, fromDomain, owner);
      checkRecipients(principal, sandbox, recipients);
      const id = newId('msg', now.getTime());
      const email = newEmail(principal, request, from, tenant, category, id, now, at);
      const blocked = findBlocked(category, suppressed, optedOut);
      if (blocked) await refuseBlocked(deps, request, email, blocked);
      // The tenant's ramp for today (brought forward on its first send of a UTC day) and daily_limit.
      const tenantLimits = storedTenant ? { tenant: storedTenant.tenant, ramp: await rampForToday(deps, storedTenant, now), stream: rampStreamOf(category) } : null;
      return accept(deps, principal, request, email, { sandbox, at, count: recipients.length, now, idempotency: options.idempotency, tenantLimits, mime: options.mime });
    },
    options.idempotency ? context.idempotency : undefined,
  );
}

async function accept(
  deps: SendDeps,
  principal: Principal,
  request: SendRequest,
  email: Email,
  {
    sandbox,
    at,
    count,
    now,
    idempotency,
    tenantLimits,
    mime,
  }: { sandbox: boolean; at: Date | null; count: number; now: Date; idempotency?: Idempotency; tenantLimits: { tenant: Tenant; ramp: RampState; stream: RampStream } | null; mime?: { raw: Buffer } },
): Promise<SendResult> {
  const result: SendResult = { id: email.id, status: at ? 'scheduled' : 'sent' };
  // The account's limits and the tenant's, in one transaction: the tighter wins, nothing overshoots.
  const reservations = [
    ...usageReservations(principal.account.plan, sandbox, now),
    ...(tenantLimits ? tenantReservations(tenantLimits.tenant, tenantLimits.ramp, tenantLimits.stream, now) : []),
  ];
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
    const content = await storeContent(deps, { accountId: principal.account.id, limitedTenant: limitedTenantOf(principal) }, email.id, request, mime);
    if (content.attachments) email.attachments = content.attachments;
    outcome = await deps.emails.accept({
      email,
      body: content.body,
      ...(content.mime ? { mime: content.mime } : {}),
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
  if (outcome.kind === 'limit_reached') {
    if (tenantLimits && parseTenantScope(outcome.reservation.scope)) {
      throw dailyRampLimitError(tenantLimits.tenant, tenantLimits.ramp, tenantLimits.stream, outcome.reservation, outcome.used, count);
    }
    throw limitError(principal, outcome.reservation, outcome.used, count, deps.dashboardUrl);
  }
  if (outcome.kind === 'idempotency_taken') throw new IdempotencyKeyTaken();
  // A scheduled send whose tenant began its deletion meanwhile: as if the tenant had not been found.
  if (outcome.kind === 'tenant_gone') throw new NotFoundError('Tenant', email.tenant ?? '');
  // The outbox (the table's stream) hands a queued email to the send queue and publishes email.scheduled
  // for a scheduled one (shared/usecases/relay-outbox.ts).
  return result;
}
