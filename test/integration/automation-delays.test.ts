/**
 * Delays and wait timeouts (docs/automations.md, "How a run moves") on a stack of its own, whose
 * functions' clock the test moves (PUT /_local/clock). A waiting step is a one-time EventBridge Scheduler
 * schedule `<run>-<step>` into the automation-steps queue (checked in the scheduler emulator, and fired
 * for real by moving its time); when a firing is lost, the reconciler wakes the step once its time has
 * passed by the late bound, which a moved clock makes happen now. Nothing sleeps for an hour.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetScheduleCommand, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { atExpression } from '#shared/adapters/aws/eventbridge-schedules';
import { loadConfig } from '#shared/config/config';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('automation delays and wait timeouts (moved clock, stack of its own)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-automation-delays-'));
  let own: SpawnedStack;
  let harness: typeof import('./harness/stack');
  let domains: typeof import('./harness/domains');
  let account: import('./harness/stack').TestAccount;
  let domain: string;

  beforeAll(async () => {
    // The reconciler at the template's 2 s: it wakes a lost firing's step.
    own = await spawnStack({ dataDir, inMemory: true, timeoutMs: 90_000, env: { LOCAL_TASK_PERIOD_MS: '' } });
    process.env.TEST_STACK_DATA_DIR = dataDir;
    harness = await import('./harness/stack');
    domains = await import('./harness/domains');
    account = await harness.newAccount({ plan: 'pro', paymentMethod: true });
    domain = (await domains.verifiedDomain(account)).name;
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const moveClock = async (offsetMs: number) =>
    expect((await harness.api('PUT', '/_local/clock', { body: { offset_ms: offsetMs } })).status).toBe(200);

  async function activeAutomation(steps: unknown[]) {
    const event = unique('evt');
    const created = await harness.api('POST', '/automations', {
      key: account.key,
      body: { name: 'Timed', trigger: { event }, steps, status: 'active' },
    });
    expect(created.status).toBe(201);
    return { id: created.body.automation.id as string, event };
  }

  async function waitingRun(automationId: string) {
    const { services } = harness.stack();
    return harness.waitFor(async () => {
      const [listed] = (await services.runs.list(automationId, { limit: 1 })).items;
      const run = listed && (await services.runs.get(listed.id));
      return run && run.step_state === 'waiting' ? run : undefined;
    }, 'a waiting run');
  }

  async function runWith(id: string, status: string, timeoutMs = 30_000) {
    const { services } = harness.stack();
    return harness.waitFor(
      async () => {
        const run = await services.runs.get(id);
        return run && run.status === status ? run : undefined;
      },
      `run ${id} ${status}`,
      timeoutMs,
      200,
    );
  }

  it('a delay is a one-time schedule into the automation-steps queue; its firing moves the run on', async () => {
    const { id, event } = await activeAutomation([
      { key: 'wait', type: 'delay', duration: '1 hour' },
      { key: 'after', type: 'condition', field: 'event.name', operator: 'exists' },
    ]);
    const before = Date.now();
    await harness.api('POST', '/events', { key: account.key, body: { name: event, user_id: 'sched' } });
    const run = await waitingRun(id);
    expect(Date.parse(run.wake_at!) - before).toBeGreaterThanOrEqual(HOUR_MS);
    expect(Date.parse(run.wake_at!) - before).toBeLessThan(HOUR_MS + 60_000);

    const config = loadConfig(process.env);
    const scheduler = createAwsClients(config).scheduler;
    const schedule = await scheduler.send(new GetScheduleCommand({ Name: `${run.id}-0`, GroupName: config.scheduleGroup }));
    expect(schedule.Target?.Arn).toBe(config.automationStepsQueueArn);
    expect(JSON.parse(schedule.Target!.Input!)).toEqual({ run_id: run.id, step_index: 0, wake: true });
    expect(schedule.ScheduleExpression).toBe(atExpression(new Date(run.wake_at!)));

    // Bring the firing forward (real time: the emulator's clock does not move) and let it fire.
    await scheduler.send(
      new UpdateScheduleCommand({
        Name: schedule.Name!,
        GroupName: schedule.GroupName,
        ScheduleExpression: atExpression(new Date(Date.now() + 1500)),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: schedule.Target,
      }),
    );
    const done = await runWith(run.id, 'completed');
    expect(done.history.map((step) => [step.key, step.status])).toEqual([
      ['wait', 'completed'],
      ['after', 'completed'],
    ]);
    expect(done.history[0]!.output).toEqual({ waited_until: run.wake_at });
  });

  it('a lost firing: the reconciler wakes the delay once its time has passed, then the email is sent', async () => {
    const { id, event } = await activeAutomation([
      { key: 'wait', type: 'delay', duration: '3 days' },
      { key: 'nudge', type: 'send_email', from: `team@${domain}`, subject: 'Still there?', text: 'hi' },
    ]);
    const to = `${unique('later')}@example.com`;
    await harness.api('POST', '/events', { key: account.key, body: { name: event, email: to } });
    const run = await waitingRun(id);
    // Nothing happens before the time (the reconciler waits for wake_at + the late bound).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect((await harness.stack().services.runs.get(run.id))!.step_state).toBe('waiting');
    await moveClock(3 * DAY_MS + 60_000);
    try {
      const done = await runWith(run.id, 'completed');
      const emailId = done.history[1]!.output!.email_id as string;
      const email = await harness.waitForStatus(account, emailId, 'delivered');
      expect(email.to).toEqual([to]);
    } finally {
      await moveClock(0);
    }
  });

  it('a wait that times out ends the run (on_timeout end) or goes on (continue), and a late event resumes nothing', async () => {
    const ends = await activeAutomation([
      { key: 'wait', type: 'wait_for_event', event: 'never.comes', timeout: '2 days', on_timeout: 'end' },
      { key: 'unreached', type: 'send_email', from: `team@${domain}`, subject: 'no', text: 'no' },
    ]);
    const goes = await activeAutomation([
      { key: 'wait', type: 'wait_for_event', event: 'never.comes', timeout: '2 days', on_timeout: 'continue' },
      { key: 'fallback', type: 'condition', field: 'event.name', operator: 'exists' },
    ]);
    await harness.api('POST', '/events', { key: account.key, body: { name: ends.event, user_id: 'timeout-user' } });
    await harness.api('POST', '/events', { key: account.key, body: { name: goes.event, user_id: 'timeout-user' } });
    const [endRun, goRun] = [await waitingRun(ends.id), await waitingRun(goes.id)];
    expect(endRun.waiting_for).toBe('never.comes');
    await moveClock(2 * DAY_MS + 60_000);
    try {
      const ended = await runWith(endRun.id, 'completed');
      expect(ended.history).toEqual([
        expect.objectContaining({ key: 'wait', status: 'completed', output: { event: 'never.comes', timed_out: true } }),
      ]);
      const went = await runWith(goRun.id, 'completed');
      expect(went.history.map((step) => step.key)).toEqual(['wait', 'fallback']);
      const late = await harness.api('POST', '/events', { key: account.key, body: { name: 'never.comes', user_id: 'timeout-user' } });
      expect(late.body.resumed_runs).toBe(0);
    } finally {
      await moveClock(0);
    }
  });
});
