/** GET /emails/{id}: one email of the caller's account (of its tenant, for a tenant-limited key), as the public record. */
import { emailOwner, toPublicEmail } from '../domain/emails/email';
import type { EmailRepository } from '../store/emails';
import { withLiveTenants, type EmailViewDeps } from './email-view';
import type { Principal } from './principal';
import { isVisible } from './visibility';

export async function getEmail(deps: { emails: Pick<EmailRepository, 'get'> } & EmailViewDeps, principal: Principal, emailId: string) {
  const stored = await deps.emails.get(emailId);
  if (!stored || !isVisible(principal, emailOwner(stored.email))) return null;
  const [email] = await withLiveTenants(deps, [stored.email], principal.credential.tenant ? [principal.credential.tenant] : []);
  return toPublicEmail(email!);
}
