/**
 * The send policy, as functions any door can call with what it knows: the HTTP API calls them all at
 * once; the SMTP relay calls checkSender at MAIL FROM, checkRecipients and findBlocked at RCPT TO.
 * Pure: lookups are done by the caller (one batch read on the HTTP path: shared/adapters/store/send-context.ts).
 */
import type { UsageReservation } from '../../domain/accounts/limits';
import { upgradeUrl } from '../../domain/accounts/plans';
import { hasScope, scopesCoveringAny } from '../../domain/api-keys/scopes';
import { parseMailbox } from '../../domain/mail/address';
import type { DomainStatus } from '../../domain/domains/domain';
import { AppError, ForbiddenError, InsufficientScopeError } from '../../domain/errors';
import type { Credential, Principal } from '../access/principal';

/** What the policy needs to know about the sender's domain (null: nobody has added it). */
export interface SenderDomainFacts {
  id: string;
  account_id: string;
  status: DomainStatus;
}

/** The credential may send (a scope covering `emails:send`: it, `mail:admin` or `full`). */
export function checkSendScope(credential: Credential): void {
  if (!hasScope(credential.scopes, ['emails:send']))
    throw new InsufficientScopeError(scopesCoveringAny(['emails:send']), credential.scopes);
}

/** Bare, lower-cased, unique addresses of the recipients (each one counts as one email). */
export function recipientAddresses(lists: readonly string[][]): string[] {
  return [...new Set(lists.flat().map((entry) => (parseMailbox(entry)?.email ?? entry).toLowerCase()))];
}

/**
 * The sender: the credential's allowed domains, then the sandbox domain or a verified domain of this
 * account (403 otherwise). Returns whether it is the sandbox sender.
 */
export function checkSender(
  principal: Principal,
  fromDomain: string,
  sandboxDomain: string,
  domain: SenderDomainFacts | null,
): { sandbox: boolean } {
  const allowed = principal.credential.allowed_domains;
  if (allowed && !allowed.includes(fromDomain)) {
    throw new ForbiddenError(`This API key may only send from ${allowed.join(', ')}.`, 'domain_not_allowed', {
      details: { domain: fromDomain, allowed_domains: allowed },
      hint: 'Use a key allowed for this domain, or send from one of its allowed domains.',
    });
  }
  if (fromDomain === sandboxDomain) return { sandbox: true };
  if (!domain || domain.account_id !== principal.account.id) {
    throw new ForbiddenError(`The domain ${fromDomain} is not verified for this account.`, 'domain_not_verified', {
      details: { domain: fromDomain },
      hint: `Add ${fromDomain} (POST /domains), publish its DNS records and verify it, or send from the sandbox sender <anything>@${sandboxDomain} to your account email.`,
    });
  }
  if (domain.status !== 'verified') {
    throw new ForbiddenError(`The domain ${fromDomain} is added but not verified.`, 'domain_not_verified', {
      details: { domain: fromDomain, domain_id: domain.id, status: domain.status },
      hint: `Publish the records of GET /domains/${domain.id}, then POST /domains/${domain.id} {"action": "verify"}.`,
    });
  }
  return { sandbox: false };
}

/**
 * Recipients: the sandbox sender, and any sender until production is unlocked (a verified domain plus a
 * payment method), may only reach the account email.
 */
export function checkRecipients(principal: Principal, sandbox: boolean, recipients: readonly string[]): void {
  if (!sandbox && principal.account.payment_method) return;
  const refused = recipients.filter((address) => address !== principal.account.email);
  if (refused.length === 0) return;
  if (sandbox) {
    throw new ForbiddenError(
      `The sandbox sender can only send to the account email (${principal.account.email}).`,
      'recipient_not_allowed',
      {
        details: { reason: 'sandbox_sender', refused_recipients: refused, allowed_recipients: [principal.account.email] },
        hint: 'Verify a domain and add a payment method to send to anyone.',
      },
    );
  }
  throw new ForbiddenError(
    `Production sending is not unlocked yet: until then you can only send to the account email (${principal.account.email}).`,
    'recipient_not_allowed',
    {
      details: { reason: 'production_not_unlocked', refused_recipients: refused, allowed_recipients: [principal.account.email] },
      hint: 'Production sending unlocks with a verified domain and a payment method on file.',
    },
  );
}

/** Recipients a send may not reach: on the suppression list, or (non-transactional mail) opted out of its category. */
export interface Blocked {
  category: string;
  suppressed: string[];
  optedOut: string[];
}

/** Null when nobody is blocked. Suppressions win over opt-outs (they are the stronger reason). */
export function findBlocked(category: string, suppressed: readonly string[], optedOut: readonly string[]): Blocked | null {
  if (suppressed.length) return { category, suppressed: [...suppressed], optedOut: [] };
  if (category !== 'transactional' && optedOut.length) return { category, suppressed: [], optedOut: [...optedOut] };
  return null;
}

/** The 422 of a blocked send; `emailId` is the refused email kept in the log. */
export function blockedError(blocked: Blocked, emailId: string): AppError {
  const { suppressed, optedOut, category } = blocked;
  if (suppressed.length) {
    return new AppError(
      422,
      'validation_error',
      `${suppressed.length === 1 ? 'A recipient is' : 'Some recipients are'} on the suppression list: ${suppressed.join(', ')}.`,
      {
        details: { suppressed, email_id: emailId },
        hint: 'Remove them from the request, or from the suppression list (DELETE /suppressions?email=...) if they asked to receive mail again.',
      },
    );
  }
  return new AppError(
    422,
    'validation_error',
    `${optedOut.length === 1 ? 'A recipient has' : 'Some recipients have'} unsubscribed from ${category} email: ${optedOut.join(', ')}.`,
    {
      details: { category_unsubscribed: optedOut, category, email_id: emailId },
      hint: 'Transactional email is not affected by category opt-outs; product and newsletter email respects them.',
    },
  );
}

/** The one-line reason kept on the refused email. */
export function blockedReason(blocked: Blocked): string {
  return blocked.suppressed.length
    ? `suppressed: ${blocked.suppressed.join(', ')}`
    : `unsubscribed from ${blocked.category} email: ${blocked.optedOut.join(', ')}`;
}

/** 429 plan_limit naming the limit that would be exceeded. */
export function limitError(
  principal: Principal,
  reservation: UsageReservation,
  used: number | undefined,
  requested: number,
  dashboardUrl: string,
): AppError {
  const what = reservation.scope === 'SANDBOX' ? 'sandbox sender' : `${principal.account.plan} plan`;
  const period = reservation.period === 'DAY' ? 'daily' : 'monthly';
  return new AppError(
    429,
    'plan_limit',
    `The ${what}'s ${period} limit of ${reservation.limit} emails would be exceeded; it resets at ${reservation.resetsAt}.`,
    {
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
      upgradeUrl: upgradeUrl(dashboardUrl),
    },
  );
}
