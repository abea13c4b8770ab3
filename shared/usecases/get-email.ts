/** GET /emails/{id}: one email of the caller's account, as the public record. */
import { toPublicEmail } from '../domain/emails/email';
import type { EmailRepository } from '../store/emails';
import type { Principal } from './principal';
import { isVisible } from './visibility';

export async function getEmail(deps: { emails: Pick<EmailRepository, 'get'> }, principal: Principal, emailId: string) {
  const stored = await deps.emails.get(emailId);
  return stored && isVisible(principal, stored.email) ? toPublicEmail(stored.email) : null;
}
