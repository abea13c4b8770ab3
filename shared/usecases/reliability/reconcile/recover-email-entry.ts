/**
 * An EMAIL entry of the due index: the email read consistently, the recovery policy's action
 * (shared/domain/reliability/recovery-policy.ts) carried out, each write conditional on the status read:
 *
 *   redrive   -> the pass's send-queue batch (queued or scheduled), its due time moved once it is queued
 *   wait      -> its due time moved (a live attempt, or one whose provider events have not settled)
 *   delay     -> email.delivery_delayed published, then recorded (a pass dying in between publishes it
 *                again, same id)
 *   expire    -> failed as undetermined, email.failed published, then out of the index
 *   announce  -> email.failed published again (an earlier pass may have died before), then out of the index
 *   clear     -> out of the index (final already)
 */
import type { Email } from '#shared/domain/emails/email';
import type { RecoveryBounds } from '#shared/domain/reliability/bounds';
import { recoverEmail } from '#shared/domain/reliability/recovery-policy';
import { emailEvent } from '#shared/domain/webhooks/email-event-data';
import type { EventPublisher } from '#shared/ports/events';
import type { DueEntryOf } from '#shared/adapters/store/due-work';
import type { EmailDueWork } from '#shared/adapters/store/emails/due';
import type { EmailReads } from '#shared/adapters/store/emails/read';
import type { RecoveryPass } from './recovery-pass';

export interface EmailRecoveryDeps {
  emails: Pick<EmailReads, 'get'> & Pick<EmailDueWork, 'postponeDue' | 'clearDue' | 'markUnconfirmed' | 'expireUnconfirmed'>;
  events: EventPublisher;
  bounds: RecoveryBounds;
}

export async function recoverEmailEntry(entry: DueEntryOf<'EMAIL'>, deps: EmailRecoveryDeps, pass: RecoveryPass): Promise<void> {
  const stored = await deps.emails.get(entry.emailId);
  if (!stored) return;
  const { email, internals } = stored;
  const action = recoverEmail(
    { ...email, send_lease_until: internals.send_lease_until, schedule_version: internals.schedule_version },
    pass.now,
    deps.bounds,
  );
  switch (action.kind) {
    case 'redrive':
      pass.sends.push({
        message: action.message,
        stage: action.stage,
        postpone: () => deps.emails.postponeDue(email.id, action.status, action.dueAt),
      });
      return;
    case 'wait':
      pass.count('waiting');
      await deps.emails.postponeDue(email.id, action.status, action.dueAt);
      return;
    case 'delay':
      return reportDelayed(email, action.dueAt, deps, pass);
    case 'expire':
      return failUndetermined(email, action.reason, deps, pass);
    case 'announce':
      await deps.events.publish([emailEvent(email, 'email.failed', email.bounced_at ?? new Date(pass.now).toISOString())]);
      await deps.emails.clearDue(email.id);
      pass.count('reannounced');
      return;
    case 'clear':
      pass.count('cleared');
      await deps.emails.clearDue(email.id);
      return;
  }
}

/** email.delivery_delayed published, then recorded (looked at again at `dueAt`). */
async function reportDelayed(email: Email, dueAt: number, deps: EmailRecoveryDeps, pass: RecoveryPass): Promise<void> {
  const at = new Date(pass.now).toISOString();
  const reported = { ...email, last_event: 'delivery_delayed' as const, updated_at: at };
  await deps.events.publish([
    emailEvent(reported, 'email.delivery_delayed', at, { occurrence: 'no-outcome', extra: { reason: 'no_outcome_reported' } }),
  ]);
  if (await deps.emails.markUnconfirmed(email.id, at, dueAt)) pass.count('delayed');
}

/** Failed as undetermined, then email.failed published; out of the index only once it is out. */
async function failUndetermined(email: Email, reason: string, deps: EmailRecoveryDeps, pass: RecoveryPass): Promise<void> {
  const at = new Date(pass.now).toISOString();
  const failed = await deps.emails.expireUnconfirmed(email.id, at, reason);
  if (!failed) return;
  await deps.events.publish([emailEvent(failed, 'email.failed', at)]);
  await deps.emails.clearDue(email.id);
  pass.count('expired');
}
