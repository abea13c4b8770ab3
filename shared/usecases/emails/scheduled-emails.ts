/**
 * PATCH /emails/{id}: reschedule or cancel, only while the email is scheduled; and a tenant's deletion
 * cancelling the tenant's scheduled emails.
 *
 * Races with the schedule firing are settled by conditional writes on the email: the firing claims
 * the email only while it is scheduled AND its schedule_version is the one that fired; a reschedule
 * bumps the version (a stale firing is ignored), a cancel moves the status away from scheduled.
 * Whichever write lands first wins; the other sees its condition fail (409 for PATCH, a skip for the
 * worker). So a cancelled or rescheduled email never goes out at the old time.
 */
import { checkScheduleTime, scheduledAtField } from '../../domain/emails/schedule';
import { emailOwner, toPublicEmail } from '../../domain/emails/email';
import type { UpdateEmailInput } from '../../domain/emails/update-request';
import { ConflictError, ServiceUnavailableError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { EmailScheduler } from '../../ports/scheduling';
import type { Tenant } from '../../domain/tenants/tenant';
import type { EmailReads } from '../../adapters/store/emails/read';
import type { EmailRepository } from '../../adapters/store/emails/repository';
import type { EmailSchedules } from '../../adapters/store/emails/schedule';
import type { StoredEmail } from '../../adapters/store/emails/stored-email';
import type { TenantScheduledRepository } from '../../adapters/store/tenant-scheduled';
import { parseWith } from '../../domain/request-validation';
import { assertVisible } from '../access/visibility';
import { logError } from '../../lib/log';
import type { Principal } from '../access/principal';

export interface ScheduledEmailDeps {
  emails: EmailRepository;
  scheduler: EmailScheduler;
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

/**
 * Cancels the account's scheduled email as read (`stored`): it gives its counted recipients back and
 * leaves its tenant's list in the same transaction. False when it is not (or no longer) scheduled. Its
 * schedule is left to the caller (a firing finds the email cancelled and does nothing). Also run by a
 * tenant's deletion for each of the tenant's scheduled emails (tenant-cleanup.ts).
 */
export async function cancelScheduledEmail(
  deps: { emails: Pick<EmailSchedules, 'cancelScheduled'> },
  accountId: string,
  stored: StoredEmail,
  now: Date,
): Promise<boolean> {
  const outcome = await deps.emails.cancelScheduled({
    accountId,
    emailId: stored.email.id,
    tenantId: stored.email.tenant_id ?? null,
    reserved: stored.internals.usage_reserved,
    now: now.toISOString(),
  });
  return outcome.kind === 'cancelled';
}

export async function updateScheduledEmail(deps: ScheduledEmailDeps, principal: Principal, emailId: string, input: UpdateEmailInput) {
  const now = deps.clock.now();
  if (input.cancel) {
    const stored = await deps.emails.get(emailId);
    assertVisible(principal, stored && emailOwner(stored.email), 'Email', emailId);
    if (!(await cancelScheduledEmail(deps, principal.account.id, stored!, now))) {
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

/** Emails a tenant's deletion reads per round (each one read and cancelled). */
const TENANT_CANCEL_PAGE = 25;

/**
 * A tenant's deletion cancels its scheduled emails (the tenant is already marked, so no new one can be
 * accepted: shared/adapters/store/tenant-scheduled.ts), as PATCH would, a page at a time. An email that fired
 * meanwhile is left to its firing, which refuses it for the deleted tenant. True when none is left;
 * false when `outOfTime` said stop first (the next DELETE goes on).
 */
export async function cancelTenantScheduledEmails(
  deps: {
    emails: Pick<EmailReads, 'get'> & Pick<EmailSchedules, 'cancelScheduled'>;
    tenantScheduled: Pick<TenantScheduledRepository, 'page' | 'forget'>;
    clock: Clock;
  },
  tenant: Pick<Tenant, 'id' | 'account_id'>,
  outOfTime: () => boolean,
): Promise<boolean> {
  for (;;) {
    const ids = await deps.tenantScheduled.page(tenant.id, TENANT_CANCEL_PAGE);
    if (ids.length === 0) return true;
    for (const id of ids) {
      const stored = await deps.emails.get(id);
      const ours =
        stored &&
        stored.email.account_id === tenant.account_id &&
        stored.email.tenant_id === tenant.id &&
        stored.email.status === 'scheduled';
      // A cancelled email leaves the list in its own transaction; anything else leaves it here.
      if (!ours || !(await cancelScheduledEmail(deps, tenant.account_id, stored, deps.clock.now())))
        await deps.tenantScheduled.forget(tenant.id, id);
    }
    if (outOfTime()) return false;
  }
}
