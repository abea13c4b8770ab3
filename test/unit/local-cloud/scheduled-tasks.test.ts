/**
 * The local stand-in of an EventBridge rate rule: a pass still running at its function's Timeout is a failed
 * pass at the timeout (Lambda's "Task timed out after" line), and the next pass still comes.
 */
import { ScheduledTaskRunner } from '#localstack/cloud/scheduled-tasks';
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
});
