/** GET /emails/{id}: one email of the caller's account (of its tenant, for a tenant-limited key), as the public record. */
import { emailOwner, toPublicEmail, type Email } from '../../domain/emails/email';
import type { EmailReads } from '../../adapters/store/emails/read';
import type { StoredEmail } from '../../adapters/store/emails/stored-email';
import { withLiveTenants, type EmailViewDeps } from './email-view';
import type { Principal } from '../access/principal';
import { isVisible } from '../access/visibility';

export type GetEmailDeps = { emails: Pick<EmailReads, 'get'> } & EmailViewDeps;

/**
 * The stored email and the email as read (its tenant null once deleted), or null when it does not exist
 * or the principal may not see it: what GET /emails/{id} and the dashboard's email page
 * (./email-content.ts) both start from.
 */
export async function findVisibleEmail(
  deps: GetEmailDeps,
  principal: Principal,
  emailId: string,
): Promise<{ stored: StoredEmail; email: Email } | null> {
  const stored = await deps.emails.get(emailId);
  if (!stored || !isVisible(principal, emailOwner(stored.email))) return null;
  const [email] = await withLiveTenants(deps, [stored.email], principal.credential.tenant ? [principal.credential.tenant] : []);
  return { stored, email: email! };
}

export async function getEmail(deps: GetEmailDeps, principal: Principal, emailId: string) {
  const found = await findVisibleEmail(deps, principal, emailId);
  return found && toPublicEmail(found.email);
}
