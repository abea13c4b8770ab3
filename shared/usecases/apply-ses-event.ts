/**
 * The SES events worker's use case: turn one SES notification into a status change of our email, and
 * put hard-bounced and complaining addresses on the account's suppression list.
 */
import { parseSesEvent } from '../domain/ses/ses-event';
import type { EmailRepository } from '../store/emails';
import { suppressAddresses, type SuppressionDeps } from './suppressions';

export type ApplyResult = 'applied' | 'ignored' | 'unknown_email';

export type ApplySesEventDeps = { emails: EmailRepository } & SuppressionDeps;

/** Throws MalformedSesEvent for bodies that are not SES events (the caller decides their fate). */
export async function applySesEvent(deps: ApplySesEventDeps, body: string): Promise<ApplyResult> {
  const event = parseSesEvent(body);
  if (!event.outcome) return 'ignored';
  if (!event.emailId || !event.accountId) return 'unknown_email'; // not sent by this service (no tags)
  let outcome = event.outcome;
  if (event.addressRefusal) {
    // Delivered first, refused later (an asynchronous bounce): a bounce after delivery, not a failure.
    const stored = await deps.emails.get(event.emailId);
    if (stored?.email.delivered_at) outcome = { ...outcome, event: 'bounced', status: 'bounced' };
  }
  const applied = await deps.emails.applyOutcome(event.emailId, event.accountId, outcome);
  if (!applied) return 'unknown_email';
  if (event.suppress) {
    await suppressAddresses(deps, { accountId: event.accountId, tenantId: null, emails: event.suppress.emails, reason: event.suppress.reason });
  }
  return 'applied';
}
