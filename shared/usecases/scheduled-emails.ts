/**
 * PATCH /emails/{id}: reschedule or cancel, only while the email is scheduled.
 *
 * Races with the schedule firing are settled by conditional writes on the email: the firing claims
 * the email only while it is scheduled AND its schedule_version is the one that fired; a reschedule
 * bumps the version (a stale firing is ignored), a cancel moves the status away from scheduled.
 * Whichever write lands first wins; the other sees its condition fail (409 for PATCH, a skip for the
 * worker). So a cancelled or rescheduled email never goes out at the old time.
 */
import { checkScheduleTime, scheduledAtField } from '../domain/emails/schedule';
import { emailOwner, toPublicEmail } from '../domain/emails/email';
import type { UpdateEmailInput } from '../domain/emails/update-request';
import { ConflictError, ServiceUnavailableError } from '../domain/errors';
import type { Clock, EmailScheduler } from '../ports';
import type { EmailRepository } from '../store/emails';
import type { UsageLedger } from '../store/usage';
import { parseWith } from '../domain/validation';
import { assertVisible } from './visibility';
import { logError } from '../log';
import type { Principal } from './principal';

export interface ScheduledEmailDeps {
  emails: EmailRepository;
  scheduler: EmailScheduler;
  usage: UsageLedger;
  clock: Clock;
}

async function notScheduled(deps: ScheduledEmailDeps, principal: Principal, emailId: string, action: string): Promise<never> {
  const stored = await deps.emails.get(emailId);
  assertVisible(principal, stored && emailOwner(stored.email), 'Email', emailId);
  throw new ConflictError(`Email ${emailId} is ${stored!.email.status}; only scheduled emails can be ${action}.`, 'conflict', {
    details: { status: stored!.email.status },
  });
}

function newTime(value: string, now: Date): Date {
  return checkScheduleTime(parseWith(scheduledAtField, value, 'scheduled_at'), now);
}

export async function updateScheduledEmail(deps: ScheduledEmailDeps, principal: Principal, emailId: string, input: UpdateEmailInput) {
  const now = deps.clock.now();
  if (input.cancel) {
    const stored = await deps.emails.get(emailId);
    assertVisible(principal, stored && emailOwner(stored.email), 'Email', emailId);
    const reserved = stored!.internals.usage_reserved;
    // A cancelled send gives its counted recipients back.
    const release = reserved ? deps.usage.release(principal.account.id, reserved.entries, reserved.count) : [];
    if (!(await deps.emails.cancelScheduled(principal.account.id, emailId, now.toISOString(), release))) {
      return notScheduled(deps, principal, emailId, 'cancelled');
    }
    // The email can no longer be sent (the firing would find it cancelled); removing the schedule is tidiness.
    await deps.scheduler.remove(emailId).catch((error) => logError('schedule removal failed', error, { email_id: emailId }));
  } else {
    const at = newTime(input.scheduled_at!, now);
    // The reschedule's condition holds the account; a key limited to a tenant also needs the tenant's.
    if (principal.credential.tenant) {
      const stored = await deps.emails.get(emailId);
      assertVisible(principal, stored && emailOwner(stored.email), 'Email', emailId);
    }
    const moved = await deps.emails.reschedule(principal.account.id, emailId, at.toISOString(), now.toISOString());
    if (!moved) return notScheduled(deps, principal, emailId, 'rescheduled');
    try {
      await deps.scheduler.upsert(emailId, at, moved.version);
    } catch (error) {
      // The old schedule still carries the old version: put the email back so it goes out as before.
      await deps.emails.revertReschedule(emailId, moved.version, moved.previous);
      throw new ServiceUnavailableError('The email could not be rescheduled; it keeps its previous time. Retry.', { cause: error });
    }
  }
  const updated = await deps.emails.get(emailId);
  return toPublicEmail(updated!.email);
}
