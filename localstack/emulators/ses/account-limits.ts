/**
 * The account's sending quota and account-level switches, as SES applies them to SendEmail:
 *
 * - Maximum send rate (recipients per second) and 24-hour quota (recipients), counted per recipient:
 *   "Quotas are based on the number of recipients, rather than on the number of messages"
 *   (https://docs.aws.amazon.com/ses/latest/dg/quotas.html). Over either, SESv2 answers HTTP 429
 *   TooManyRequestsException "Maximum sending rate exceeded." or "Daily message quota exceeded."
 *   (https://docs.aws.amazon.com/ses/latest/dg/manage-sending-quotas-errors.html).
 * - The rate is a token bucket of one second's worth (the emulator's own choice: SES says only that short
 *   bursts above the rate may pass). A message with several recipients passes while the bucket holds at
 *   least one token and then takes them all, so the next sends are refused until the bucket has filled
 *   again ("if your send rate quota is one message per second, and you send a message to five recipients
 *   at once, Amazon SES lets you do that. For the next five seconds, though, ... errors":
 *   https://aws.amazon.com/blogs/messaging-and-targeting/what-happens-when-you-reach-your-sending-limits/).
 * - The 24-hour quota is a rolling window: "the maximum number of emails that you can send in a 24-hour
 *   period", and SentLast24Hours counts what was sent in it
 *   (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendQuota.html).
 * - PutAccountSendingAttributes `SendingEnabled: false` pauses the whole account: SendEmail answers
 *   SendingPausedException (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutAccountSendingAttributes.html,
 *   https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html#API_SendEmail_Errors).
 * - A suspended account (SES's enforcement; local only: there is no SES API for it) answers
 *   AccountSuspendedException.
 *
 * The emulator has no quota unless given one; the local cloud gives it LOCAL_CLOUD_QUOTA. The sandbox preset is SES's sandbox quota: 1 per second and
 * 200 per 24 hours. None of this state is persisted: a restart starts a new 24 hours (emulator's choice).
 */
import { SesError } from './errors';

/**
 * The local SES account's quota when none is set: finite, as every SES account's is (a production account
 * starts at 14 recipients a second and 50,000 a day: https://docs.aws.amazon.com/ses/latest/dg/quotas.html), so
 * the send worker paces to it and writes the shared budget on every send as on AWS; high enough that no test or
 * bench of this machine reaches it (at 1,000 the whole suite's bursts, batches of 100 emails to 50 recipients
 * each among them, held other tests' sends for seconds behind them and three files timed out). The SES sandbox
 * (LOCAL_SES_SANDBOX=1) keeps its own quota. Twice before (2026-11-26) this default made the whole suite run at
 * half pace: the 24-hour quota summed every send of the window on each send (30,000 sends took 11 s of this
 * emulator's CPU, growing with the square), now a running sum (30,000: 26 ms).
 */
export const LOCAL_CLOUD_QUOTA = { maxSendRate: 10_000, max24HourSend: 5_000_000 } as const;

/** SES's sandbox quota (https://docs.aws.amazon.com/ses/latest/dg/quotas.html). */
export const SANDBOX_QUOTA = { maxSendRate: 1, max24HourSend: 200 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface AccountLimitOptions {
  /** Recipients per second; undefined or <= 0: no rate limit. */
  maxSendRate?: number;
  /** Recipients per rolling 24 hours; undefined or <= 0: no quota. */
  max24HourSend?: number;
  /** The account is in the SES sandbox: ProductionAccessEnabled false, and SANDBOX_QUOTA for what is unset. */
  sandbox?: boolean;
}

const positive = (n: number | undefined | null): number | null => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null);

/**
 * The account's quota state, which SendEmail's admission (admitSend) and the account's operations share:
 * GetAccount and `/_local/account` read it, PutAccountSendingAttributes and `/_local/account` change its
 * switches (operations/get-account.ts, operations/put-account-sending-attributes.ts, operations/local-account.ts).
 */
export class AccountLimits {
  /** Recipients per second; null: no rate limit (setMaxSendRate changes it). */
  private rate: number | null;
  /** Recipients per rolling 24 hours; null: no quota. */
  max24HourSend: number | null;
  /** The account is in the SES sandbox. */
  readonly sandbox: boolean;
  /** PutAccountSendingAttributes' SendingEnabled (and `/_local/account`'s sendingEnabled). */
  sendingEnabled = true;
  /** `/_local/account`'s suspension (local only). */
  suspended = false;
  /** The rate's bucket as a theoretical arrival time (GCRA): empty when <= now, each recipient adds 1/rate s. */
  private tatMs = 0;
  /** Sends refused with TooManyRequestsException since the start (local only: `/_local/account`'s `throttled`). */
  private throttledSends = 0;
  /**
   * Recipients accepted in the last 24 hours: [time, count], oldest first from `sentHead` (entries before it
   * have left the window), and their sum: each send costs O(1), however many the window holds (summing the
   * whole list on every send made a suite's worth of sends quadratic).
   */
  private sent: [number, number][] = [];
  private sentHead = 0;
  private sentInWindow = 0;

  constructor(
    options: AccountLimitOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.sandbox = options.sandbox ?? false;
    this.rate = positive(options.maxSendRate) ?? (this.sandbox ? SANDBOX_QUOTA.maxSendRate : null);
    this.max24HourSend = positive(options.max24HourSend) ?? (this.sandbox ? SANDBOX_QUOTA.max24HourSend : null);
  }

  /** Whether SES's sandbox rules apply (recipient checks live with the identities). */
  inSandbox(): boolean {
    return this.sandbox;
  }

  get maxSendRate(): number | null {
    return this.rate;
  }

  /** A new rate (null: none) starts with a full bucket. */
  setMaxSendRate(rate: number | null): void {
    this.rate = rate;
    this.tatMs = 0;
  }

  /** Sends refused with TooManyRequestsException since the start. */
  get throttled(): number {
    return this.throttledSends;
  }

  /**
   * Admits a send of `recipients` recipients or throws as SES does: suspended, paused, daily quota, rate.
   * An admitted send counts against the rate and the 24-hour quota at once (synchronous: no race).
   */
  admitSend(recipients: number): void {
    if (this.suspended) {
      // Emulator's text: SES documents the code, "the account's ability to send email has been permanently restricted".
      throw new SesError('AccountSuspendedException', "The account's ability to send email has been permanently restricted.");
    }
    if (!this.sendingEnabled) throw new SesError('SendingPausedException', 'Sending paused for this account.');
    const now = this.now();
    if (this.max24HourSend !== null && this.sentLast24Hours(now) + recipients > this.max24HourSend)
      throw this.throttle('Daily message quota exceeded.');
    if (this.rate !== null) {
      const rate = this.rate;
      const capacity = Math.max(rate, 1);
      // Tokens left = capacity - (tat - now) * rate; a send needs at least one.
      if ((this.tatMs - now) * rate > (capacity - 1) * 1000 + 1e-6) throw this.throttle('Maximum sending rate exceeded.');
      this.tatMs = Math.max(this.tatMs, now) + (recipients * 1000) / rate;
    }
    this.sent.push([now, recipients]);
    this.sentInWindow += recipients;
  }

  private throttle(message: string): SesError {
    this.throttledSends++;
    return new SesError('TooManyRequestsException', message);
  }

  /** The recipients accepted in the last 24 hours (GetAccount's SentLast24Hours). */
  sentLast24Hours(now: number = this.now()): number {
    while (this.sentHead < this.sent.length && this.sent[this.sentHead]![0] <= now - DAY_MS) {
      this.sentInWindow -= this.sent[this.sentHead]![1];
      this.sentHead++;
    }
    // The entries that left, dropped once they are half the list (amortised O(1)).
    if (this.sentHead > 1024 && this.sentHead * 2 > this.sent.length) {
      this.sent = this.sent.slice(this.sentHead);
      this.sentHead = 0;
    }
    return this.sentInWindow;
  }
}
