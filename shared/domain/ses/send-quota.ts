/**
 * SES's sending quota and account-level refusals, as the send path reads them. Pure.
 *
 * - SES counts its quotas per recipient, not per message (https://docs.aws.amazon.com/ses/latest/dg/quotas.html).
 * - Over its rate or daily quota SES answers a throttling error, "Maximum sending rate exceeded" or
 *   "Daily message quota exceeded" (https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html),
 *   on SESv2 HTTP 429 TooManyRequestsException; AWS advises waiting "up to 10 minutes" before a retry.
 * - SendingPausedException: the account's (or a configuration set's, or a tenant's) sending is paused;
 *   AccountSuspendedException: SES suspended the account
 *   (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html#API_SendEmail_Errors).
 */

/** Why a send waits instead of going out now. */
export type HoldReason = 'rate' | 'throttled' | 'daily_quota' | 'account_paused' | 'account_suspended';

/** An SES refusal that is about the account's quota or state, not about the message. */
export type SesAccountRefusal = 'throttled' | 'daily_quota' | 'paused' | 'suspended';

const THROTTLING = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling', 'LimitExceededException']);

/** The SES error's code and message (the AWS SDK's `name` and `message`), read from the error or its cause. */
function sesErrorOf(error: unknown): { name: string; message: string } | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if (e.name !== 'MailerError' && e.name !== 'Error') return { name: e.name, message: e.message };
  }
  return null;
}

/** The account-level refusal an SES error is, or null (an error about the message, or not SES's). */
export function accountRefusalOf(error: unknown): SesAccountRefusal | null {
  const ses = sesErrorOf(error);
  if (!ses) return null;
  if (THROTTLING.has(ses.name)) return /daily/i.test(ses.message) ? 'daily_quota' : 'throttled';
  if (ses.name === 'SendingPausedException') return 'paused';
  if (ses.name === 'AccountSuspendedException') return 'suspended';
  return null;
}

/**
 * The share of SES's MaxSendRate the workers pace to. Sends reach SES a little later than their slots,
 * some later than others (a slow instance, a cold start, a busy event loop), and late sends then arrive
 * together; SES's headroom (its bucket, refilled by the unused tenth) absorbs such a bunch instead of
 * throttling it. SES_MAX_SEND_RATE, when set, is paced to as it is.
 */
export const PACE_SHARE_OF_SES_RATE = 0.9;

/**
 * Send-queue records the send worker handles at once: its event source's batchSize x maxConcurrency
 * (infra/definitions/workers.ts, WORKERS 'send-email'; test/infra keeps the two equal). Paced sends wait in them.
 */
export const SEND_WORKER_IN_FLIGHT = 100;

/** Recipients per second the send workers pace to: SES_MAX_SEND_RATE, else a share of SES's MaxSendRate; null: not paced. */
export function paceRateOf(sesMaxSendRate: number | null, configured: number | null): number | null {
  if (configured !== null) return configured;
  return sesMaxSendRate === null ? null : sesMaxSendRate * PACE_SHARE_OF_SES_RATE;
}

/** The recipients SES counts for a send: every distinct envelope address. */
export function recipientCount(message: { to: string[]; cc: string[]; bcc: string[] }): number {
  return new Set([...message.to, ...message.cc, ...message.bcc].map((address) => address.toLowerCase())).size;
}

/**
 * How long a held email waits before its next attempt:
 * - throttled by SES while paced (sends reached SES closer together than the budget spaced them): 1 s;
 * - the daily quota: 10 minutes, AWS's advice;
 * - the account paused or suspended: 5 minutes, so mail resumes within minutes of the operator (or SES)
 *   lifting it.
 */
export const HOLD_RETRY_MS: Record<Exclude<HoldReason, 'rate'>, number> = {
  throttled: 1000,
  daily_quota: 10 * 60_000,
  account_paused: 5 * 60_000,
  account_suspended: 5 * 60_000,
};

/**
 * How long an email may be held by the account's state (paused, suspended, the daily quota) before it
 * fails for good: SES itself gives up on a message it cannot deliver after about this long.
 */
export const MAX_HOLD_MS = 72 * 60 * 60_000;

/** SQS's longest message delay: a longer hold comes back early and waits again. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** The queue delay for a retry at `retryAt`: whole seconds, at least 1 after now, at most SQS's maximum. */
export function queueDelaySeconds(retryAt: number, now: number): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(1, Math.ceil((retryAt - now) / 1000)));
}
