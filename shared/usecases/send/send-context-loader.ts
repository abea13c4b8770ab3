/**
 * The send-context loader: what a send is decided on, read in ONE round trip when this process planned it
 * right (docs/reference/send-path.md, "The send core"). Every send goes through `load` (sendEmail, ./send-email.ts),
 * the SMTP relay's MAIL FROM through `loadSender`, and POST /emails with a body it cannot read through
 * `refuseCallerFirst`. It alone:
 *  - resolves the caller (./send-caller.ts): a key's account, remembered or read first;
 *  - renders a template (one read of its published pointer), answering 401/403 before the template's 400;
 *  - plans the read from its guesses (./tenant-read.ts): which tenant's lists, which domain's claim;
 *  - reads (shared/adapters/store/send-context.ts), resolves the principal and the tenant (./send-tenant.ts), and
 *    corrects a wrong guess with one follow-up read, remembering what it learnt for the next send;
 *  - completes a domain claim written before claims carried the status (one read of the domain).
 *
 * Its caches, per instance (docs/reference/caches.md):
 *  - keyAccounts: key hash -> account id (10,000 keys): immutable, no bound needed; authentication shares
 *    it (shared/services/access.ts);
 *  - guesses (TenantGuesses, 10,000 entries each): tenant id -> external_id and key hash -> tenant id are
 *    immutable; (account, external_id) -> tenant id, tenant id -> default_from_domain and (account,
 *    domain) -> owning tenant id are guesses, unbounded in time but never deciding (the read checks them).
 * One instance per process, built by the composition root; a test builds its own, with empty caches.
 */
import { domainOf, isBareLocalPart } from '../../domain/mail/address';
import type { Category } from '../../domain/mail/category';
import type { ParsedSendRequest, SendRequest } from '../../domain/emails/send-request';
import { AppError } from '../../domain/errors';
import type { OptOutCategory } from '../../domain/suppressions/reasons';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';
import type { DomainCrud } from '../../adapters/store/domains/crud';
import type { SendContext, SendContextReader } from '../../adapters/store/send-context';
import type { TenantRepository } from '../../adapters/store/tenants';
import { KeyAccounts } from '../access/key-accounts';
import type { Principal } from '../access/principal';
import { checkSendScope, recipientAddresses, type SenderDomainFacts } from './policy';
import type { ResolvedSendContext } from './resolved-send-context';
import type { ClearedRecipients } from './cleared-recipients';
import { callerInRead, keyInRead, type CallerDeps, type CallerInRead, type SendCaller } from './send-caller';
import { sendTenantOf, type SendTenantDeps } from './send-tenant';
import { completeRequest, type TemplateContentDeps } from './template-content';
import { completeSender, type ClaimOwner } from './tenant-policy';
import { TenantGuesses, type TenantReadPlan } from './tenant-read';

/** What the loader reads through. */
export interface SendContextLoaderPorts extends TemplateContentDeps {
  sendContext: Pick<SendContextReader, 'read'>;
  apiKeys: Pick<ApiKeyRepository, 'findByHash'>;
  tenants: Pick<TenantRepository, 'find'>;
  domains: Pick<DomainCrud, 'get'>;
  sandboxDomain: string;
  /** The process's key -> account cache, shared with authentication (shared/services/access.ts); a fresh one when absent. */
  keyAccounts?: KeyAccounts;
}

/** What MAIL FROM settles from its read: the credential as of now, and the sender's domain. */
export interface MailFromContext {
  principal: Principal;
  /** The domain's send-time facts (a legacy claim completed); null for the sandbox or a domain nobody claimed. */
  domain: SenderDomainFacts | null;
  /** The domain's claim (any account's), null for the sandbox or a domain nobody claimed. */
  owner: ClaimOwner | null;
}

/** What a request asks the read for, before any guess. */
interface Wanted {
  /** The sender's domain as given; null for a bare local part (the tenant's default_from_domain completes it). */
  givenDomain: string | null;
  recipients: string[];
  category: Category;
  optOutCategory: OptOutCategory | undefined;
}

function wantedBy(request: SendRequest): Wanted {
  const category = request.category ?? 'transactional';
  return {
    givenDomain: isBareLocalPart(request.from) ? null : domainOf(request.from.email),
    recipients: recipientAddresses([request.to, request.cc ?? [], request.bcc ?? []]),
    category,
    optOutCategory: category === 'transactional' ? undefined : (category as OptOutCategory),
  };
}

/** The first read, as planned. */
interface FirstRead {
  plan: TenantReadPlan;
  /** The domain whose claim was read: the given one, or the guessed tenant's default. */
  readDomain: string | null;
  context: SendContext;
}

const NOTHING_READ: Pick<SendContext, 'key' | 'account'> = { key: null, account: null };

export class SendContextLoader {
  /** key hash -> account id: shared with authentication (shared/usecases/access/authenticate.ts). */
  readonly keyAccounts: KeyAccounts;
  private readonly guesses = new TenantGuesses();
  private readonly callers: CallerDeps;
  private readonly tenantDeps: SendTenantDeps;

  constructor(private readonly ports: SendContextLoaderPorts) {
    this.keyAccounts = ports.keyAccounts ?? new KeyAccounts();
    this.callers = { apiKeys: ports.apiKeys, keyAccounts: this.keyAccounts, guesses: this.guesses };
    this.tenantDeps = { tenants: ports.tenants, guesses: this.guesses };
  }

  /**
   * What the send is decided on. The account first (known, remembered, or one read), then the template's
   * published version (one read, only for a template send: its from decides which claim is read), then
   * ONE read of everything else, and a follow-up read only when a guess was wrong or missing. Throws what
   * the caller and the tenant earn: 401, 403 (scope, tenants_not_enabled, a key limited to another
   * tenant), 404 (tenant), 400 (a template problem; a bare `from` that cannot be completed).
   */
  async load(
    caller: SendCaller,
    parsed: ParsedSendRequest,
    now: Date,
    idempotencyKey?: string,
    cleared?: ClearedRecipients,
  ): Promise<ResolvedSendContext> {
    const who = await callerInRead(this.callers, caller);
    const request = await this.rendered(who, parsed, now);
    const wanted = wantedBy(request);
    const first = await this.readPlanned(who, request, wanted, now, idempotencyKey, cleared);
    const principal = this.whoSends(who, first.context);
    const { tenant, claim: ownerClaim } = await sendTenantOf(
      this.tenantDeps,
      principal,
      request.tenant,
      first,
      this.givenClaim(who.accountId, wanted, first.context),
    );
    const from = completeSender(request.from, tenant?.tenant ?? null);
    const fromDomain = domainOf(from.email);
    const checked = await this.corrected(who.accountId, wanted, first, tenant?.tenant.id ?? null, fromDomain, now);
    let completed: Promise<SenderDomainFacts | null> | undefined;
    return {
      principal,
      request,
      category: wanted.category,
      tenant,
      sender: {
        from,
        domain: fromDomain,
        owner: wanted.givenDomain === null ? checked.claim : ownerClaim,
        domainFacts: () => (completed ??= this.senderDomainFacts(checked.claim)),
      },
      recipients: { addresses: wanted.recipients, suppressed: checked.suppressed, optedOut: checked.optedOut },
      idempotency: idempotencyKey === undefined ? undefined : first.context.idempotency,
    };
  }

  /**
   * MAIL FROM (shared/doors/smtp/session-policy.ts): the session's credential again (revoked since AUTH: 401;
   * its scope: 403) and the sender domain's claim, in one read.
   */
  async loadSender(session: { principal: Principal; secretHash: string }, fromDomain: string, now: Date): Promise<MailFromContext> {
    const who = keyInRead(this.callers, session.secretHash, 'smtp', session.principal.account.id);
    const context = await this.ports.sendContext.read({
      accountId: who.accountId,
      apiKeyHash: who.apiKeyHash,
      fromDomain: this.claimName(fromDomain),
      recipients: [],
      tenantId: null,
      now,
    });
    return { principal: this.maySend(who, context), owner: context.domain, domain: await this.senderDomainFacts(context.domain) };
  }

  /**
   * 401/403 before 400: a request the door cannot read (POST /emails with a body that does not parse) is
   * answered as its caller deserves first. Resolves the caller as a send does (a key: its account, then
   * one read of key and account) and checks it may send; returns when it may, and the door throws its 400.
   */
  async refuseCallerFirst(caller: SendCaller, now: Date): Promise<void> {
    await this.checkMaySend(await callerInRead(this.callers, caller), now);
  }

  /** The one place of 401/403 before 400: the caller as of now (a key: one read of key and account) may send. */
  private async checkMaySend(who: CallerInRead, now: Date): Promise<void> {
    const read =
      who.apiKeyHash === undefined
        ? NOTHING_READ
        : await this.ports.sendContext.read({ accountId: who.accountId, apiKeyHash: who.apiKeyHash, recipients: [], tenantId: null, now });
    this.maySend(who, read);
  }

  /** The request with its template rendered; a template problem (400) comes after the caller's 401/403. */
  private async rendered(who: CallerInRead, parsed: ParsedSendRequest, now: Date): Promise<SendRequest> {
    try {
      return await completeRequest(this.ports, who.accountId, parsed);
    } catch (error) {
      if (error instanceof AppError) await this.checkMaySend(who, now);
      throw error;
    }
  }

  /** The one read, planned from the guesses: key and account, claim, tenant items, lists, idempotency record. */
  private async readPlanned(
    who: CallerInRead,
    request: SendRequest,
    wanted: Wanted,
    now: Date,
    idempotencyKey: string | undefined,
    cleared: ClearedRecipients | undefined,
  ): Promise<FirstRead> {
    const plan = this.guesses.plan({
      accountId: who.accountId,
      named: request.tenant,
      keyTenantId: who.keyTenantId(),
      fromDomain: wanted.givenDomain,
    });
    const readDomain = wanted.givenDomain ?? plan.defaultFromDomain;
    // Checked by the door against the same lists a moment ago: not read again. Another tenant's lists (a wrong
    // guess, corrected below) are read whole.
    const clearOfSuppressions = cleared && cleared.tenantId === plan.tenantId ? cleared.addresses : undefined;
    const context = await this.ports.sendContext.read({
      accountId: who.accountId,
      apiKeyHash: who.apiKeyHash,
      fromDomain: this.claimName(readDomain),
      recipients: wanted.recipients,
      ...(clearOfSuppressions ? { clearOfSuppressions } : {}),
      tenantId: plan.tenantId,
      tenantExternalIds: plan.tenantExternalIds,
      tenantAliasIds: plan.tenantAliasIds,
      optOutCategory: wanted.optOutCategory,
      idempotencyKey,
      now,
    });
    return { plan, readDomain, context };
  }

  /** The claim of the from domain as given (none for a bare local part); an own domain's owner is remembered for the next send's plan. */
  private givenClaim(accountId: string, wanted: Wanted, context: SendContext): SendContext['domain'] {
    if (wanted.givenDomain === null || !context.domain) return null;
    if (context.domain.account_id === accountId) this.guesses.rememberDomainTenant(accountId, wanted.givenDomain, context.domain.tenant_id);
    return context.domain;
  }

  /** The sender's claim and the lists, as the send's tenant needs them: one follow-up read when the plan guessed wrong or could not guess. */
  private async corrected(
    accountId: string,
    wanted: Wanted,
    first: FirstRead,
    tenantId: string | null,
    fromDomain: string,
    now: Date,
  ): Promise<{ claim: SendContext['domain']; suppressed: string[]; optedOut: string[] }> {
    const bare = wanted.givenDomain === null;
    const needClaim = bare && fromDomain !== first.readDomain && this.claimName(fromDomain) !== undefined;
    const needLists = tenantId !== first.plan.tenantId;
    let claim = bare && fromDomain !== first.readDomain ? null : first.context.domain;
    let { suppressed, optedOut } = first.context;
    if (needClaim || needLists) {
      const more = await this.ports.sendContext.read({
        accountId,
        fromDomain: needClaim ? fromDomain : undefined,
        recipients: wanted.recipients,
        tenantId,
        optOutCategory: wanted.optOutCategory,
        now,
      });
      if (needClaim) claim = more.domain;
      if (needLists) ({ suppressed, optedOut } = more);
    }
    return { claim, suppressed, optedOut };
  }

  /** The principal of a send (a key's tenant remembered for the next send's plan), which may send. */
  private whoSends(who: CallerInRead, context: SendContext): Principal {
    const principal = this.maySend(who, context);
    if (who.apiKeyHash !== undefined) this.guesses.rememberKeyTenant(who.apiKeyHash, principal.credential.tenant);
    return principal;
  }

  /** 401 (revoked key, deleted account), 403 (no emails:send scope), else the principal. */
  private maySend(who: CallerInRead, read: Pick<SendContext, 'key' | 'account'>): Principal {
    const principal = who.principal(read);
    checkSendScope(principal.credential);
    return principal;
  }

  /** The domain name whose claim is read: none for the sandbox domain (nothing to read) or no domain. */
  private claimName(domain: string | null): string | undefined {
    return domain === null || domain === this.ports.sandboxDomain ? undefined : domain;
  }

  /** The sender domain's facts; a claim written before claims carried the status is completed from the domain (one read). */
  private async senderDomainFacts(claim: SendContext['domain']): Promise<SenderDomainFacts | null> {
    if (!claim) return null;
    if (claim.status !== undefined) return claim as SenderDomainFacts;
    const stored = await this.ports.domains.get(claim.id);
    return stored ? { id: stored.domain.id, account_id: stored.domain.account_id, status: stored.domain.status } : null;
  }
}
