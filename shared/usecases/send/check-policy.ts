/**
 * The send's policy step (./policy.ts, ./tenant-policy.ts, ./account-policy.ts), on what the send-context loader
 * resolved: the account may send (paused: 403 account_paused), the tenant may send (paused, stream policy: 403), the sender (allowed for the key, the sandbox or a verified
 * domain of the account, owned by this tenant or the account: 403), the recipients (the sandbox sender and
 * production unlock: 403), then suppressions and category opt-outs: a blocked send is kept as a failed
 * email and answered 422 (./refuse-blocked.ts). Returns the email to accept.
 */
import type { Email } from '../../domain/emails/email';
import { newEmail } from './new-email';
import { checkRecipients, checkSender, findBlocked } from './policy';
import { refuseBlocked } from './refuse-blocked';
import type { ResolvedSendContext } from './resolved-send-context';
import type { SendDeps } from './send-deps';
import { checkDomainOwner, checkTenantMaySend } from './tenant-policy';
import { checkAccountMaySend } from './account-policy';

/** The email the send may create, and whether it goes out from the sandbox sender (its own caps). */
export interface PolicyOutcome {
  email: Email;
  sandbox: boolean;
}

export async function checkPolicy(
  deps: Pick<SendDeps, 'emails' | 'blobs' | 'sandboxDomain'>,
  facts: ResolvedSendContext,
  now: Date,
  at: Date | null,
  emailId?: string,
): Promise<PolicyOutcome> {
  const { principal, sender, recipients } = facts;
  checkAccountMaySend(principal.account);
  const tenant = facts.tenant?.tenant ?? null;
  if (tenant) checkTenantMaySend(tenant, facts.category);
  const isSandbox = sender.domain === deps.sandboxDomain;
  const { sandbox } = checkSender(principal, sender.domain, deps.sandboxDomain, isSandbox ? null : await sender.domainFacts());
  if (!sandbox) checkDomainOwner(tenant, sender.domain, sender.owner);
  checkRecipients(principal, sandbox, recipients.addresses);
  const email = newEmail(facts, now, at, emailId);
  const blocked = findBlocked(facts.category, recipients.suppressed, recipients.optedOut);
  if (blocked) await refuseBlocked(deps, facts.request, email, blocked);
  return { email, sandbox };
}
