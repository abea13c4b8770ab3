/**
 * The local stand-in of an EventBridge rate rule: a pass still running at its function's Timeout is a failed
 * pass at the timeout (Lambda's "Task timed out after" line), and the next pass still comes.
 */
import { localTaskPeriod, ScheduledTaskRunner } from '#localstack/cloud/workers/scheduled-tasks';
import { waitFor } from '../../support/wait';

describe('ScheduledTaskRunner', () => {
  it('fails a pass still running at the function timeout, logs it as Lambda does, and runs the next pass', async () => {
    const logged: string[] = [];
    const hangs: (() => void)[] = [];
    let calls = 0;
    const runner = new ScheduledTaskRunner({
      name: 'reconciler',
      // The first pass never returns on its own; the second answers at once.
      handler: async () => {
        calls++;
        if (calls === 1) await new Promise<void>((resolve) => hangs.push(resolve));
        return { redriven: 1 };
      },
      everyMs: 500,
      timeoutSeconds: 1,
      log: (line) => logged.push(line),
    });
    const started = Date.now();
    runner.start();
    try {
      await waitFor(
        () => logged.some((line) => /^reconciler: \S+ \S+ Task timed out after 1\.\d\d seconds$/.test(line)),
        'the timeout logged',
        10_000,
        5,
      );
      // Failed at the timeout (not before), while the handler still hangs: the task is down with Lambda's error.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
      expect(runner.status()).toMatchObject({ state: expect.stringMatching(/^down: Task timed out after 1\.\d\d seconds$/), passes: 0 });
      await waitFor(() => calls >= 2, 'a second pass after the first timed out', 10_000, 20);
      await waitFor(() => runner.status().passes === 1, 'the second pass recorded', 5_000, 20);
      expect(runner.status()).toMatchObject({ state: 'up', passes: 1, totals: { redriven: 1 } });
    } finally {
      for (const release of hangs) release();
      await runner.stop();
    }
  });

  it('runs a pass on request, after the one running (never two at once), and answers with its report', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    const release: (() => void)[] = [];
    const runner = new ScheduledTaskRunner({
      name: 'reconciler',
      handler: async () => {
        calls++;
        running++;
        most = Math.max(most, running);
        // The timer's first pass waits until released; a requested pass answers at once.
        if (calls === 1) await new Promise<void>((resolve) => release.push(resolve));
        running--;
        return { redriven: calls };
      },
      everyMs: 50,
      timeoutSeconds: 10,
      log: () => undefined,
    });
    runner.start();
    try {
      await waitFor(() => calls === 1, 'the timer pass started', 5_000, 5);
      const requested = runner.runNow();
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Still waiting for the timer's pass: the requested one has not started beside it.
      expect(calls).toBe(1);
      release[0]!();
      const status = await requested;
      expect(most).toBe(1);
      expect(status).toMatchObject({ state: 'up', passes: 2, last_report: { redriven: 2 }, totals: { redriven: 3 } });
    } finally {
      for (const done of release) done();
      await runner.stop();
    }
  });

  it('a requested pass that fails answers with the state it left; the timer still runs the next', async () => {
    let calls = 0;
    const runner = new ScheduledTaskRunner({
      name: 'reconciler',
      handler: async () => {
        calls++;
        if (calls === 1) throw new Error('table gone');
        return { redriven: 0 };
      },
      everyMs: 60_000,
      timeoutSeconds: 10,
      log: () => undefined,
    });
    try {
      expect(await runner.runNow()).toMatchObject({ state: 'down: table gone', passes: 0 });
      expect(await runner.runNow()).toMatchObject({ state: 'up', passes: 1 });
    } finally {
      await runner.stop();
    }
  });
});

describe("a task's local period (LOCAL_TASK_PERIOD_MS)", () => {
  const period = (value: string | undefined, name: string) => localTaskPeriod(2000, { LOCAL_TASK_PERIOD_MS: value }, name);

  it("is the definition's when unset or empty, a number for every task, an entry for one task over it", () => {
    expect(period(undefined, 'reconciler')).toBe(2000);
    expect(period('', 'reconciler')).toBe(2000);
    expect(period('4000', 'domain-health')).toBe(4000);
    expect(period('4000,reconciler=15000', 'reconciler')).toBe(15000);
    expect(period('4000,reconciler=15000', 'domain-health')).toBe(4000);
    expect(period('reconciler=15000', 'domain-health')).toBe(2000);
    expect(period(' reconciler = 15000 ', 'reconciler')).toBe(2000); // a name with spaces is another name
    expect(period('reconciler=15000', 'reconciler')).toBe(15000);
  });

  it('ignores an entry that is not a whole number above 0', () => {
    expect(period('soon', 'reconciler')).toBe(2000);
    expect(period('0,reconciler=-5', 'reconciler')).toBe(2000);
    expect(period('1.5,reconciler=x', 'reconciler')).toBe(2000);
    expect(period('=3000', 'reconciler')).toBe(2000);
  });
});
