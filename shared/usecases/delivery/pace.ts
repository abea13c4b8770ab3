/**
 * Sends paced to SES's quota, and SES's account-level refusals held instead of failed (docs/deploy.md,
 * "SES quota"), one message at a time (messagePacer):
 *
 * - before the email is composed, the send's recipients reserve a turn in the shared budget
 *   (shared/adapters/store/ses-send-budget.ts) at the rate the workers pace to; a turn further than the inline window (inlineWaitMs)
 *   away holds the email (SendHeld 'rate': its message goes back to the queue with a delay, its turn with
 *   it, to come back just before the turn); a nearer one is waited for right before SES is called;
 * - SES's throttling (429 "Maximum sending rate exceeded.", "Daily message quota exceeded.") and an
 *   account pause or suspension become SendHeld: the email stays queued and is tried again later, never
 *   failed, never through the DLQ. A SendingPausedException while the account sends (a configuration
 *   set's or a tenant's pause) is left as it was (the send path's own handling) once a second try at once
 *   meets it again (the account may have been resumed between SES's answer and the read). An email held by the
 *   account's state longer than MAX_HOLD_MS fails for good.
 *
 * The rate runs on real time (`now`), as SES's does: the service clock can be moved by the local cloud.
 */
import { MailerError, type Mailer, type OutboundMessage } from '../../ports/mail';
import {
  accountRefusalOf,
  HOLD_RETRY_MS,
  MAX_HOLD_MS,
  recipientCount,
  SEND_WORKER_IN_FLIGHT,
  type HoldReason,
} from '../../domain/ses/send-quota';
import type { SesSendBudget } from '../../adapters/store/ses-send-budget';

/**
 * How close a slot is waited for in the worker; a later one holds the email (the queue's delay), to come
 * back within this window of its slot and wait the rest here. The queue's delay is whole seconds (rounded
 * up), so a held message is visible again between the window and a second less before its slot; it may
 * then wait for a free worker (each invocation lasts as long as its slowest record) and for its compose,
 * and must still reach SES within LATE_MS of its turn, else it takes a new one and its turn passes unused
 * (bench:ses-quota prints the turns taken again: at a 1 s window, about 1 in 8 of a burst at 14/s).
 *
 * A wider window costs workers: while a backlog waits, every in-flight record waits about half the window,
 * so the send worker's SEND_WORKER_IN_FLIGHT records pace at most IN_FLIGHT / (window / 2) sends a second.
 * So the window is as wide as that allows at the rate paced to, between MIN_INLINE_WAIT_MS (the queue's
 * 1 s granularity) and MAX_INLINE_WAIT_MS: 3 s at 14/s, 1 s from 100/s.
 */
export const MIN_INLINE_WAIT_MS = 1000;
export const MAX_INLINE_WAIT_MS = 3000;

/** The inline wait window at `ratePerSecond` (recipients a second paced to). */
export function inlineWaitMs(ratePerSecond: number): number {
  const affordable = Math.floor(((SEND_WORKER_IN_FLIGHT / ratePerSecond) * 1000) / 2);
  return Math.min(MAX_INLINE_WAIT_MS, Math.max(MIN_INLINE_WAIT_MS, affordable));
}

/** A send this late for its slot when it is ready takes a fresh one (its old turn has passed). */
export const LATE_MS = 1000;

export interface PaceDeps {
  budget: Pick<SesSendBudget, 'reserve'>;
  /** Recipients per second to pace to (SES's MaxSendRate, or the configured one); null: not paced. */
  sendRate(): Promise<number | null>;
  /** Whether SES's account sends now (a fresh GetAccount; read only after a SendingPausedException). */
  accountSendingEnabled(): Promise<boolean>;
  /** Overrides the wait after an account-level refusal (pause, suspension, daily quota): SES_HOLD_RETRY_S, for tests. */
  accountHoldRetryMs?: number | null;
  /** Real time, epoch ms. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** What a held message brought back: its reserved slot, and since when SES's account state holds it. */
export interface HoldTicket {
  slotMs?: number;
  heldSince?: number;
}

/** The send waits: its message goes back to the queue until `retryAt` (real time, epoch ms). */
export class SendHeld extends Error {
  override readonly name = 'SendHeld';

  constructor(
    readonly reason: HoldReason,
    readonly retryAt: number,
    /** The slot reserved in the budget (reason 'rate'): the send goes out then without reserving again. */
    readonly slotMs?: number,
  ) {
    super(`send held (${reason}) until ${new Date(retryAt).toISOString()}`);
  }

  /** Held by SES's account state (not by the rate): counts toward MAX_HOLD_MS. */
  get byAccount(): boolean {
    return this.reason === 'account_paused' || this.reason === 'account_suspended' || this.reason === 'daily_quota';
  }
}

type Recipients = Pick<OutboundMessage, 'to' | 'cc' | 'bcc'>;

/** The send's slot: the one the message brought, else one reserved now; null when sends are not paced. */
async function slotFor(deps: PaceDeps, recipients: Recipients, brought: number | undefined): Promise<number | null> {
  if (brought !== undefined) return brought;
  const rate = await deps.sendRate();
  if (rate === null) return null;
  return (await deps.budget.reserve(recipientCount(recipients), rate, deps.now())).slotMs;
}

/** Throws SendHeld when the slot is too far to wait for here; the message comes back within the inline window of it. */
async function holdIfFar(deps: PaceDeps, slotMs: number): Promise<void> {
  if (slotMs - deps.now() <= MIN_INLINE_WAIT_MS) return;
  // The queue's delay is whole seconds and a send's slot is not: back early, and the rest is waited here,
  // since sends reaching SES later than their slots, and then together, would exceed its rate.
  const rate = await deps.sendRate();
  const window = rate === null ? MIN_INLINE_WAIT_MS : inlineWaitMs(rate);
  if (slotMs - deps.now() > window) throw new SendHeld('rate', slotMs - window, slotMs);
}

/** What the send does after an SES refusal: held (SendHeld), tried once more, or failed with the error. */
type Refused = { retry: true } | { retry: false; error: unknown };

/**
 * The outcome of an SES refusal: SendHeld when it is about the account's quota or state. A pause that the
 * account no longer shows (GetAccount, read after SES's answer) is either a configuration set's or a
 * tenant's, or the account's own, resumed between SES's answer and the read: tried once more at once
 * (`mayRetry`), it is left to the send path only when SES answers the pause again.
 */
async function afterRefusal(deps: PaceDeps, error: unknown, ticket: HoldTicket, mayRetry: boolean): Promise<Refused> {
  const refusal = accountRefusalOf(error);
  if (refusal === null) return { retry: false, error };
  // Unknown (GetAccount failed): held, not lost.
  if (refusal === 'paused' && (await deps.accountSendingEnabled().catch(() => false))) {
    return mayRetry ? { retry: true } : { retry: false, error };
  }
  const reason: HoldReason = refusal === 'paused' ? 'account_paused' : refusal === 'suspended' ? 'account_suspended' : refusal;
  const now = deps.now();
  const wait = reason !== 'throttled' && deps.accountHoldRetryMs ? deps.accountHoldRetryMs : HOLD_RETRY_MS[reason];
  const held = new SendHeld(reason, now + wait);
  if (held.byAccount && ticket.heldSince !== undefined && now - ticket.heldSince >= MAX_HOLD_MS) {
    const hours = Math.round(MAX_HOLD_MS / 3_600_000);
    const failed = new MailerError(
      `Not sent: SES refused it for ${hours} hours (${reason.replace('_', ' ')}); last answer: ${(error as Error).message}`,
      true,
      { cause: error },
    );
    return { retry: false, error: failed };
  }
  return { retry: false, error: held };
}

/** Whether a send at `turn` is so late now that it would reach SES together with later turns. */
const isLate = (deps: PaceDeps, turn: number): boolean => deps.now() - turn > LATE_MS;

/**
 * Waits for the send's turn. A send that is well past its turn would arrive at SES together with later
 * ones, so it takes a fresh turn instead: when it reaches this point late (composing took long), and when
 * the wait itself ended late (a stalled process or a frozen Lambda wakes its timers together), once each.
 */
async function waitForTurn(deps: PaceDeps, recipients: Recipients, slotMs: number): Promise<void> {
  let turn = slotMs;
  for (let wake = 0; wake < 2; wake++) {
    if (isLate(deps, turn)) turn = (await slotFor(deps, recipients, undefined)) ?? turn;
    await holdIfFar(deps, turn);
    const wait = turn - deps.now();
    if (wait <= 0) return;
    await deps.sleep(wait);
    if (!isLate(deps, turn)) return;
  }
}

/**
 * One message's pace: `reserve` before the email is composed (deliverEmail's `paceSend`) takes the send's
 * slot, or holds the email at once when the slot is far (no work done for it); `mailer` waits for the
 * slot, sends, and turns SES's account-level refusals into SendHeld. A second send of the same message
 * (without the SES tenant) reserves a slot of its own.
 */
export function messagePacer(
  deps: PaceDeps,
  ticket: HoldTicket,
): { reserve(recipients: Recipients): Promise<void>; mailer(inner: Pick<Mailer, 'send'>): Pick<Mailer, 'send'> } {
  let slot: number | null | undefined = ticket.slotMs;
  let reserved = false;
  return {
    async reserve(recipients) {
      slot = await slotFor(deps, recipients, slot ?? undefined);
      reserved = true;
      if (slot !== null) await holdIfFar(deps, slot);
    },
    mailer: (inner) => ({
      async send(message) {
        const slotMs = reserved ? slot : await slotFor(deps, message, slot ?? undefined);
        reserved = false;
        slot = undefined;
        if (slotMs !== null && slotMs !== undefined) await waitForTurn(deps, message, slotMs);
        for (let attempt = 0; ; attempt++) {
          try {
            return await inner.send(message);
          } catch (error) {
            const outcome = await afterRefusal(deps, error, ticket, attempt === 0);
            if (!outcome.retry) throw outcome.error;
          }
        }
      },
    }),
  };
}
