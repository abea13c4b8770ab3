/** The SES events worker's use case: turn one SES notification into a status change of our email. */
import { parseSesEvent } from '../domain/ses/ses-event';
import type { EmailRepository } from '../store/emails';

export type ApplyResult = 'applied' | 'ignored' | 'unknown_email';

/** Throws MalformedSesEvent for bodies that are not SES events (the caller decides their fate). */
export async function applySesEvent(deps: { emails: EmailRepository }, body: string): Promise<ApplyResult> {
  const event = parseSesEvent(body);
  if (!event.outcome) return 'ignored';
  if (!event.emailId) return 'unknown_email'; // not sent by this service (no email_id tag)
  const applied = await deps.emails.applyOutcome(event.emailId, event.accountId, event.outcome);
  return applied ? 'applied' : 'unknown_email';
}
