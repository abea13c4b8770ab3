/**
 * What the relay refuses before the message is sent, with the send core's own policy
 * (shared/usecases/send/policy.ts), so a client learns early and per recipient:
 * - MAIL FROM: the credential again (revoked: 535), its scope, and the sender: the sandbox domain or a
 *   verified domain of the account, allowed for the credential (403 -> 550 5.7.1). One read through the
 *   send-context loader (key, account and the domain's claim together: `loadSender`);
 * - RCPT TO: address syntax (553 5.1.3), at most MAX_RECIPIENTS per message (452 4.5.3), the sandbox and
 *   production-unlock recipient rule (403 -> 550 5.7.1), and the suppression lists of the account and of
 *   the tenant the send is for when known by now (the credential's, or the sender domain's) (550 5.1.1
 *   with the list's reason); other recipients of the message are still accepted.
 * The send core checks all of this again at DATA (and what only the message tells: its From, the tenant
 * named by X-Service-Tenant, category opt-outs, plan and ramp limits).
 */
import { domainOf, parseMailbox } from '../../domain/mail/address';
import { MAX_RECIPIENTS } from '../../domain/emails/send-request';
import { AppError, ForbiddenError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { SuppressionRepository } from '../../adapters/store/suppressions';
import type { Principal } from '../../usecases/access/principal';
import { checkRecipients, checkSender } from '../../usecases/send/policy';
import type { SendContextLoader } from '../../usecases/send/send-context-loader';
import { SmtpRefusal } from './replies';

export interface SessionPolicyDeps {
  sendContextLoader: Pick<SendContextLoader, 'loadSender'>;
  suppressions: Pick<SuppressionRepository, 'get'>;
  clock: Clock;
  sandboxDomain: string;
}

/** What MAIL FROM settled for the transaction. */
export interface AcceptedSender {
  principal: Principal;
  sandbox: boolean;
  /** The tenant whose suppression list applies too (the credential's, else the sender domain's), or null. */
  tenantId: string | null;
}

export async function checkMailFrom(
  deps: SessionPolicyDeps,
  authenticated: { principal: Principal; secretHash: string },
  address: string,
): Promise<AcceptedSender> {
  if (address === '') {
    throw new ForbiddenError('The null sender (MAIL FROM:<>) is not relayed: send from an address of a verified domain.', 'forbidden');
  }
  if (!parseMailbox(address)) throw new SmtpRefusal(553, '5.1.7', `The sender address <${address}> is not valid.`);
  const fromDomain = domainOf(address);
  // The credential as of now: revoked (or its account deleted) since AUTH is a 401 here.
  const { principal, domain, owner } = await deps.sendContextLoader.loadSender(authenticated, fromDomain, deps.clock.now());
  const { sandbox } = checkSender(principal, fromDomain, deps.sandboxDomain, domain);
  const domainTenant = owner && owner.account_id === principal.account.id ? owner.tenant_id : null;
  return { principal, sandbox, tenantId: principal.credential.tenant ?? domainTenant ?? null };
}

export async function checkRcptTo(
  deps: SessionPolicyDeps,
  sender: AcceptedSender,
  accepted: readonly string[],
  address: string,
): Promise<void> {
  if (!parseMailbox(address)) throw new SmtpRefusal(553, '5.1.3', `The recipient address <${address}> is not valid.`);
  const lower = address.toLowerCase();
  const others = new Set(accepted.map((entry) => entry.toLowerCase()));
  others.delete(lower);
  if (others.size >= MAX_RECIPIENTS) {
    throw new SmtpRefusal(
      452,
      '4.5.3',
      `Too many recipients: at most ${MAX_RECIPIENTS} per message (to, cc and bcc together, as on the API); send the others in another message.`,
    );
  }
  checkRecipients(sender.principal, sender.sandbox, [lower]);
  const accountId = sender.principal.account.id;
  const [accountEntry, tenantEntry] = await Promise.all([
    deps.suppressions.get(accountId, null, lower),
    sender.tenantId ? deps.suppressions.get(accountId, sender.tenantId, lower) : Promise.resolve(null),
  ]);
  const entry = accountEntry ?? tenantEntry;
  if (entry) {
    throw new AppError(
      422,
      'validation_error',
      `The recipient ${lower} is on the ${entry.scope === 'tenant' ? "tenant's" : "account's"} suppression list (reason: ${entry.reason}, since ${entry.created_at}).`,
      {
        details: { suppressed: [lower], reason: entry.reason },
        hint: 'Other recipients of the message are not affected; remove it from the list (DELETE /suppressions?email=...) if they asked to receive mail again.',
      },
    );
  }
}
