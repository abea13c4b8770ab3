/**
 * The send worker's use case: deliverEmail paced to SES's quota (./pace.ts: the turn reserved before composing, the paced mailer). A held send goes back to
 * the send queue with a delay (its slot and hold time with it) and its message is done: the receive count
 * of a throttled email never grows toward the DLQ, and SES's throttling or an account pause never fails an
 * email. The email is held (leased until its retry, emails.holdForRetry) so that a duplicate message or
 * the reconciler does not send it around the wait.
 *
 * An account pause or suspension is an operator's matter: each hold logs a warning with an EMF metric
 * (SesAccountHeld), which the stack can alarm on.
 */
import type { SendMessage } from '../../domain/messages';
import { METRICS_NAMESPACE } from '../../config/metrics';
import { queueDelaySeconds } from '../../domain/ses/send-quota';
import { logInfo, logWarn } from '../../lib/log';
import type { EmailDelivery } from '../../adapters/store/emails/delivery';
import { deliverEmail, type DeliverEmailDeps, type DeliverResult } from './deliver-email';
import { messagePacer, SendHeld, type PaceDeps } from './pace';

export interface PacedDeliveryDeps extends DeliverEmailDeps {
  emails: DeliverEmailDeps['emails'] & Pick<EmailDelivery, 'holdForRetry'>;
  pace: PaceDeps;
  /** The send queue: a held message back, with a delay. */
  sendQueue: { requeue(message: SendMessage, delaySeconds: number): Promise<void> };
}

export type PacedDeliverResult = DeliverResult | 'held';

/** The CloudWatch EMF line of an email held by SES's account state: metric SesAccountHeld (Count) by Reason. */
function heldMetricLine(reason: string, emailId: string, now: number): string {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['Reason']], Metrics: [{ Name: 'SesAccountHeld', Unit: 'Count' }] }],
    },
    level: 'warn',
    message: 'SES refuses to send for the account: email held, not failed (docs/deploy.md, "SES quota")',
    Reason: reason,
    SesAccountHeld: 1,
    email_id: emailId,
  });
}

async function hold(deps: PacedDeliveryDeps, message: SendMessage, held: SendHeld): Promise<void> {
  const now = deps.pace.now();
  const heldSince = message.held_since ?? (held.byAccount ? now : undefined);
  const next: SendMessage = {
    email_id: message.email_id,
    ...(message.schedule_version !== undefined ? { schedule_version: message.schedule_version } : {}),
    ...(held.slotMs !== undefined ? { paced_at: held.slotMs } : {}),
    ...(heldSince !== undefined ? { held_since: heldSince } : {}),
  };
  // Back on the queue first: if that fails, this message fails and SQS gives it again.
  await deps.sendQueue.requeue(next, queueDelaySeconds(held.retryAt, now));
  // The lease is on the service clock (which the local cloud can move); the wait is real time.
  await deps.emails.holdForRetry(message.email_id, deps.clock.now().getTime() + (held.retryAt - now)).catch((error: unknown) => {
    logWarn('send-email: could not mark a held email (a duplicate message may take it earlier)', {
      email_id: message.email_id,
      error: String(error),
    });
  });
  if (held.reason === 'account_paused' || held.reason === 'account_suspended') {
    if (process.env.LOG_LEVEL !== 'silent') console.log(heldMetricLine(held.reason, message.email_id, now));
  } else if (held.reason !== 'rate') {
    logInfo('send-email: SES throttled, email held', {
      email_id: message.email_id,
      reason: held.reason,
      retry_at: new Date(held.retryAt).toISOString(),
    });
  }
}

export async function deliverPaced(deps: PacedDeliveryDeps, message: SendMessage): Promise<PacedDeliverResult> {
  const pacer = messagePacer(deps.pace, { slotMs: message.paced_at, heldSince: message.held_since });
  try {
    return await deliverEmail(
      { ...deps, mailer: pacer.mailer(deps.mailer), paceSend: pacer.reserve },
      message.email_id,
      message.schedule_version,
    );
  } catch (error) {
    if (!(error instanceof SendHeld)) throw error;
    await hold(deps, message, error);
    return 'held';
  }
}
