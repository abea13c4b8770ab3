/**
 * One message's pace to SES's quota (shared/usecases/delivery/pace.ts), with an in-memory budget and clock:
 * near slots are waited for, far ones hold the email, SES's throttling and account-level refusals hold it,
 * a configuration set's or tenant's pause does not, and an account hold has a bound.
 */
import { MailerError, type OutboundMessage } from '#shared/ports/mail';
import { MAX_HOLD_MS } from '#shared/domain/ses/send-quota';
import {
  inlineWaitMs,
  LATE_MS,
  MAX_INLINE_WAIT_MS,
  MIN_INLINE_WAIT_MS,
  messagePacer,
  SendHeld,
  type PaceDeps,
} from '#shared/usecases/delivery/pace';

const message: OutboundMessage = {
  raw: Buffer.from('x'),
  from: 'a@example.com',
  to: ['b@example.com', 'B@example.com'],
  cc: ['c@example.com'],
  bcc: [],
  tags: {},
};

function sesError(name: string, text: string): MailerError {
  const cause = Object.assign(new Error(text), { name });
  return new MailerError(`SES ${name}: ${text}`, ['SendingPausedException', 'AccountSuspendedException'].includes(name), { cause });
}

function fixture(options: { rate?: number | null; tat?: number; sendingEnabled?: boolean; fail?: MailerError; stalls?: number[] } = {}) {
  let now = 1_000_000;
  let tat = options.tat ?? 0;
  const reserved: number[] = [];
  const slept: number[] = [];
  const sent: number[] = [];
  const deps: PaceDeps = {
    budget: {
      reserve: async (recipients, rate, at) => {
        reserved.push(recipients);
        const slotMs = Math.max(tat, at);
        tat = slotMs + (recipients * 1000) / rate;
        return { slotMs };
      },
    },
    sendRate: async () => (options.rate === undefined ? 10 : options.rate),
    accountSendingEnabled: async () => options.sendingEnabled ?? true,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms + (options.stalls?.shift() ?? 0); // a stalled process wakes its timer late
    },
  };
  const inner = {
    send: async () => {
      sent.push(now);
      if (options.fail) throw options.fail;
      return { providerMessageId: 'ses-1' };
    },
  };
  return { deps, inner, reserved, slept, sent, advance: (ms: number) => (now += ms), now: () => now };
}

async function heldBy(promise: Promise<unknown>): Promise<SendHeld> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SendHeld);
  return error as SendHeld;
}

describe('messagePacer', () => {
  it('reserves the distinct recipients before composing, then waits for a near slot and sends', async () => {
    const f = fixture({ tat: 1_000_000 + 800 });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message);
    expect(f.reserved).toEqual([2]); // b@ and B@ are one recipient, c@ another
    await pacer.mailer(f.inner).send(message);
    expect(f.slept).toEqual([800]);
    expect(f.sent).toEqual([1_000_000 + 800]);
  });

  it('holds at once when the slot is far: back the inline window before it, with the slot', async () => {
    const slot = 1_000_000 + 60_000;
    const f = fixture({ tat: slot });
    const held = await heldBy(messagePacer(f.deps, {}).reserve(message));
    // At 10/s the window is the widest: 100 in-flight records afford 5 s of waiting each.
    expect(held).toMatchObject({ reason: 'rate', slotMs: slot, retryAt: slot - MAX_INLINE_WAIT_MS });
    expect(f.sent).toEqual([]);
  });

  it('waits inline for a slot within the window (3 s at 10/s), not holding it', async () => {
    const f = fixture({ tat: 1_000_000 + MAX_INLINE_WAIT_MS });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message);
    await pacer.mailer(f.inner).send(message);
    expect(f.slept).toEqual([MAX_INLINE_WAIT_MS]);
  });

  it('narrows the window as the rate rises, so that waiting records do not cap the pace', () => {
    expect(inlineWaitMs(10)).toBe(MAX_INLINE_WAIT_MS);
    expect(inlineWaitMs(25)).toBe(2000);
    expect(inlineWaitMs(50)).toBe(MIN_INLINE_WAIT_MS);
    expect(inlineWaitMs(1000)).toBe(MIN_INLINE_WAIT_MS);
  });

  it('at a high rate, a slot 2 s away holds the email (the 1 s window)', async () => {
    const f = fixture({ rate: 200, tat: 1_000_000 + 2000 });
    const held = await heldBy(messagePacer(f.deps, {}).reserve(message));
    expect(held).toMatchObject({ reason: 'rate', retryAt: 1_000_000 + 2000 - MIN_INLINE_WAIT_MS });
  });

  it('a send ready well after its slot (a slow compose) takes a fresh turn instead of joining later ones', async () => {
    const f = fixture({ tat: 1_000_000 + 300 });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message); // slot +300, tat +500
    f.advance(300 + LATE_MS + 1);
    await pacer.mailer(f.inner).send(message);
    expect(f.reserved).toEqual([2, 2]);
    expect(f.sent).toEqual([1_000_000 + 300 + LATE_MS + 1]); // the fresh turn: now (the budget was free again)
  });

  it('a wait that ends well after its turn (a stalled process) takes a fresh turn, and sends at it', async () => {
    const f = fixture({ tat: 1_000_000 + 300, stalls: [LATE_MS + 200] });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message); // slot +300, tat +500
    f.advance(100); // someone else's turn follows: tat +800 by the time this one wakes
    await f.deps.budget.reserve(3, 10, f.now());
    await pacer.mailer(f.inner).send(message);
    expect(f.slept[0]).toBe(200);
    const woke = 1_000_000 + 300 + LATE_MS + 200;
    expect(f.reserved).toEqual([2, 3, 2]);
    expect(f.sent).toEqual([woke]); // the fresh turn is now: the budget's turns had all passed while it slept
  });

  it('a wait that ends a little late (within LATE_MS) keeps its turn', async () => {
    const f = fixture({ tat: 1_000_000 + 300, stalls: [LATE_MS - 1] });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message);
    await pacer.mailer(f.inner).send(message);
    expect(f.reserved).toEqual([2]);
    expect(f.sent).toEqual([1_000_000 + 300 + LATE_MS - 1]);
  });

  it('a fresh turn after a late wake is waited for; a second late wake sends without a third turn', async () => {
    const f = fixture({ tat: 1_000_000 + 300, stalls: [LATE_MS + 1, LATE_MS + 1] });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message); // slot +300, tat +500
    f.advance(50);
    await f.deps.budget.reserve(20, 10, f.now()); // 2 s of turns taken by others from +500: tat +2500
    await pacer.mailer(f.inner).send(message);
    // Woke at +300 + LATE_MS + 1 = +1301: late; the fresh turn is +2500 (1.2 s away: within the 3 s window at 10/s).
    expect(f.slept).toEqual([250, 1199]);
    expect(f.reserved).toEqual([2, 20, 2]);
    expect(f.sent).toEqual([1_000_000 + 2500 + LATE_MS + 1]);
  });

  it('a message that brought its slot does not reserve again', async () => {
    const f = fixture();
    const pacer = messagePacer(f.deps, { slotMs: 1_000_000 + 800 });
    await pacer.reserve(message);
    await pacer.mailer(f.inner).send(message);
    expect(f.reserved).toEqual([]);
    expect(f.sent).toEqual([1_000_000 + 800]);
  });

  it('unpaced when there is no rate (SES unlimited)', async () => {
    const f = fixture({ rate: null });
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message);
    await pacer.mailer(f.inner).send(message);
    expect(f.reserved).toEqual([]);
    expect(f.slept).toEqual([]);
  });

  it('holds what SES throttles: 429 over the rate (1 s), the daily quota (10 min)', async () => {
    const rate = fixture({ fail: sesError('TooManyRequestsException', 'Maximum sending rate exceeded.') });
    expect(await heldBy(messagePacer(rate.deps, {}).mailer(rate.inner).send(message))).toMatchObject({
      reason: 'throttled',
      retryAt: rate.now() + 1000,
    });
    const daily = fixture({ fail: sesError('TooManyRequestsException', 'Daily message quota exceeded.') });
    expect(await heldBy(messagePacer(daily.deps, {}).mailer(daily.inner).send(message))).toMatchObject({
      reason: 'daily_quota',
      retryAt: daily.now() + 600_000,
    });
  });

  it('holds an account pause and a suspension; a pause while the account sends (a set or a tenant) is left as it was', async () => {
    const paused = sesError('SendingPausedException', 'Sending paused for this account.');
    const account = fixture({ fail: paused, sendingEnabled: false });
    expect((await heldBy(messagePacer(account.deps, {}).mailer(account.inner).send(message))).reason).toBe('account_paused');
    // A set's or a tenant's pause answers the same on the second try at once: left to the send path.
    const tenant = fixture({ fail: paused, sendingEnabled: true });
    await expect(messagePacer(tenant.deps, {}).mailer(tenant.inner).send(message)).rejects.toBe(paused);
    expect(tenant.sent).toHaveLength(2);
    const suspended = fixture({ fail: sesError('AccountSuspendedException', 'restricted') });
    expect((await heldBy(messagePacer(suspended.deps, {}).mailer(suspended.inner).send(message))).reason).toBe('account_suspended');
  });

  it('an account pause resumed between SES’s answer and the read of the account is sent on a second try, not failed', async () => {
    const resumed = fixture({ fail: sesError('SendingPausedException', 'Sending paused for this account.'), sendingEnabled: true });
    const send = resumed.inner.send;
    let calls = 0;
    const inner = { send: async () => (++calls === 1 ? send() : { providerMessageId: 'ses-2' }) };
    await expect(
      messagePacer(resumed.deps, { heldSince: resumed.now() - 4000 })
        .mailer(inner)
        .send(message),
    ).resolves.toEqual({
      providerMessageId: 'ses-2',
    });
    expect(calls).toBe(2);
  });

  it('fails for good an email the account has held for MAX_HOLD_MS, never one only throttled', async () => {
    const paused = fixture({ fail: sesError('SendingPausedException', 'paused'), sendingEnabled: false });
    const since = paused.now() - MAX_HOLD_MS;
    const error = await messagePacer(paused.deps, { heldSince: since })
      .mailer(paused.inner)
      .send(message)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).permanent).toBe(true);
    expect((error as MailerError).message).toMatch(/72 hours \(account paused\)/);
    const throttled = fixture({ fail: sesError('TooManyRequestsException', 'Maximum sending rate exceeded.') });
    expect((await heldBy(messagePacer(throttled.deps, { heldSince: since }).mailer(throttled.inner).send(message))).reason).toBe(
      'throttled',
    );
  });

  it('a second send of the message (without the SES tenant) reserves its own slot', async () => {
    const f = fixture();
    const pacer = messagePacer(f.deps, {});
    await pacer.reserve(message);
    const mailer = pacer.mailer(f.inner);
    await mailer.send(message);
    await mailer.send(message);
    expect(f.reserved).toEqual([2, 2]);
    expect(f.sent).toEqual([1_000_000, 1_000_000 + 200]);
  });
});
