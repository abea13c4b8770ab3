/**
 * The tests' one polling helper (test/support/wait.ts): a wait that times out says what it waited for
 * and why (the probe's last error and last answer), and `unlessProbeFailed` lets a caller assert on
 * what it saw only when the probe was not failing.
 */
import { MAX_POLL_MS, pollDelayMs, unlessProbeFailed, waitFor, WaitTimeout } from '../../support/wait';

describe('waitFor', () => {
  it('answers the first truthy value of the probe', async () => {
    let calls = 0;
    expect(await waitFor(async () => (++calls === 3 ? { ok: calls } : undefined), 'the third call', 1000, 1)).toEqual({ ok: 3 });
  });

  it('names what it waited for, the last error (and its attempt) and the last answer on a timeout', async () => {
    let calls = 0;
    const failure = await waitFor(
      async () => {
        calls++;
        if (calls === 2) throw new Error('answered 503');
        return false;
      },
      'the list to show 7',
      // Long enough for the three attempts it needs on a loaded machine (at 60 ms a whole run once saw one).
      500,
      5,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WaitTimeout);
    expect((failure as Error).message).toMatch(
      /^timed out after 500 ms \(\d+ attempts\) waiting for the list to show 7; the probe last threw on attempt 2: answered 503; it last returned false$/,
    );
    expect((failure as WaitTimeout).lastAttemptThrew).toBe(false);
    expect((failure as Error).cause).toEqual(new Error('answered 503'));
  });
});

describe('the pause between looks', () => {
  it('starts at everyMs and grows by half each look up to MAX_POLL_MS (a longer everyMs is kept)', () => {
    expect([1, 2, 3, 4].map((attempt) => pollDelayMs(50, attempt))).toEqual([50, 75, 112.5, 168.75]);
    expect(pollDelayMs(50, 20)).toBe(MAX_POLL_MS);
    expect(pollDelayMs(2000, 5)).toBe(2000);
  });

  it('looks less and less often, and still ends at its timeout', async () => {
    const looks: number[] = [];
    const started = Date.now();
    await waitFor(() => void looks.push(Date.now()), 'never', 1000, 50).catch(() => undefined);
    // 50, 75, 112, 169, 253, 380 (and what is left of the second): 7 or 8 looks, not the 20 of a fixed 50 ms.
    expect(looks.length).toBeGreaterThanOrEqual(5);
    expect(looks.length).toBeLessThanOrEqual(9);
    const gaps = looks.slice(1).map((at, index) => at - looks[index]!);
    expect(gaps.at(-2)!).toBeGreaterThan(gaps[0]!);
    expect(Date.now() - started).toBeLessThan(1000 + MAX_POLL_MS);
  });
});

describe('unlessProbeFailed', () => {
  const timeout = (lastAttemptThrew: boolean) =>
    waitFor(
      async () => {
        if (lastAttemptThrew) throw new Error('refused: 500');
        return false;
      },
      'x',
      20,
      5,
    ).catch((error: unknown) => error);

  it('lets a timeout through when the probe only answered "not yet" (the caller then shows what it saw)', async () => {
    const notYet = await timeout(false);
    expect(() => unlessProbeFailed(notYet)).not.toThrow();
  });

  it('throws the timeout, with its cause, when the probe was failing at the end, and any other error as it is', async () => {
    const failing = await timeout(true);
    expect(() => unlessProbeFailed(failing)).toThrow(/the probe last threw on attempt \d+: refused: 500/);
    expect(() => unlessProbeFailed(new Error('other'))).toThrow('other');
  });
});
