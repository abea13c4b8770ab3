/**
 * The automation-steps worker's use case (runStep) over the in-memory runs store (fake-runs.ts), with a
 * clock the test moves: each step type, duplicates and wake-ups, refusals and retries, paused and deleted
 * automations, the attempt limit.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation, Step } from '#shared/domain/automations/automation';
import { AppError } from '#shared/domain/errors';
import { EmailExists } from '#shared/usecases/send/idempotency';
import { stepEmailId, stepIdempotencyKey } from '#shared/usecases/automations/runs/step-email';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { Principal } from '#shared/usecases/access/principal';
import { MAX_ATTEMPTS, runStep, STEP_LEASE_MS, type RunStepDeps } from '#shared/usecases/automations/runs/run-step';
import { FakeRuns, testRun } from './fake-runs';

const START = Date.parse('2026-11-23T10:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const account: Account = {
  id: 'acc_1',
  email: 'owner@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: iso(START - DAY),
  updated_at: iso(START - DAY),
};

const AUTO_ID = 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F';

function automation(steps: Step[], status: Automation['status'] = 'active'): Automation {
  return {
    id: AUTO_ID,
    account_id: 'acc_1',
    name: 'Welcome series',
    status,
    trigger: { event: 'user.created', cancel_on_events: [] },
    steps,
    version: 2,
    created_at: iso(START - DAY),
    updated_at: iso(START - DAY),
    activated_at: iso(START - DAY),
    allowed_domains: null,
  };
}

const send = (key: string, over: Record<string, unknown> = {}) =>
  ({
    key,
    type: 'send_email',
    to: ['{{event.email}}'],
    from: 'Acme <hello@acme.test>',
    subject: 'Hi {{event.data.first_name}}',
    text: 'Welcome',
    ...over,
  }) as Step;
const condition = (key: string, value: string) => ({ key, type: 'condition', field: 'event.data.plan', operator: 'eq', value }) as Step;
const delay = (key: string, duration: string) => ({ key, type: 'delay', duration }) as Step;
const wait = (key: string, onTimeout: string) =>
  ({ key, type: 'wait_for_event', event: 'user.upgraded', timeout: '7 days', on_timeout: onTimeout }) as Step;

interface SendCall {
  principal: Principal;
  request: ParsedSendRequest;
  emailId: string;
}

function world(
  steps: Step[],
  options: { status?: Automation['status'] | 'deleted'; data?: Record<string, unknown>; allowedDomains?: string[] | null } = {},
) {
  let now = START;
  const runs = new FakeRuns();
  const stored = { automation: options.status === 'deleted' ? null : automation(steps, options.status ?? 'active') };
  const wakes: { runId: string; stepIndex: number; at: string }[] = [];
  const sends: SendCall[] = [];
  let sendBehaviour: (call: SendCall) => Promise<{ id: string; status: string }> = async () => ({
    id: `msg_${sends.length}`,
    status: 'queued',
  });
  // The store's emails by id (what a send under an id left there), and the idempotency records of older steps.
  const emails = new Map<string, { id: string; status: string }>();
  const idempotencyRecords = new Map<string, unknown>();
  const reads: string[] = [];
  const deps: RunStepDeps = {
    runs,
    automations: {
      get: async (accountId, id) =>
        stored.automation && accountId === 'acc_1' && id === stored.automation.id ? structuredClone(stored.automation) : null,
    },
    accounts: { get: async (id) => (id === account.id ? structuredClone(account) : null) },
    stepScheduler: { wakeAt: async (runId, stepIndex, at) => void wakes.push({ runId, stepIndex, at: at.toISOString() }) },
    sendEmail: async (principal, request, emailId) => {
      const call = { principal, request, emailId };
      sends.push(call);
      const sent = await sendBehaviour(call);
      emails.set(emailId, sent);
      return sent;
    },
    emails: {
      get: async (emailId) => {
        reads.push(`email ${emailId}`);
        const email = emails.get(emailId);
        return email ? { email: email as never } : null;
      },
    },
    idempotency: {
      get: async (accountId, key) => {
        reads.push(`idempotency ${key}`);
        const body = idempotencyRecords.get(`${accountId} ${key}`);
        return body ? { body } : null;
      },
    },
    clock: { now: () => new Date(now) },
  };
  const run = testRun(steps, {
    at: START,
    automation: { version: 2, allowed_domains: options.allowedDomains ?? null },
    event: { data: options.data ?? { plan: 'free', first_name: 'Ada' } },
  });
  void runs.start(run);
  return {
    deps,
    runs,
    wakes,
    sends,
    emails,
    idempotencyRecords,
    reads,
    id: run.id,
    stored,
    at: (ms: number) => {
      now = ms;
    },
    now: () => now,
    onSend: (behaviour: typeof sendBehaviour) => {
      sendBehaviour = behaviour;
    },
    step: (index: number, wake?: true) =>
      runStep(deps, wake ? { run_id: run.id, step_index: index, wake } : { run_id: run.id, step_index: index }),
  };
}

describe('runStep: condition', () => {
  it('true goes on to the next step (pending), with the result and trace in the history', async () => {
    const w = world([condition('still-free', 'free'), send('nudge')]);
    w.at(START + 1000);
    expect(await w.step(0)).toBe('completed');
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({
      status: 'running',
      step_index: 1,
      step_state: 'pending',
      attempt: 0,
      lease_until: null,
      step_started_at: null,
      ended_at: null,
    });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'still-free',
        type: 'condition',
        status: 'completed',
        started_at: iso(START + 1000),
        completed_at: iso(START + 1000),
        output: { result: true, trace: ['event.data.plan eq "free": "free" -> true'] },
        error: null,
      },
    ]);
    expect(w.sends).toEqual([]);
  });

  it('false ends the run as completed (not failed)', async () => {
    const w = world([condition('still-free', 'free'), send('nudge')], { data: { plan: 'pro' } });
    expect(await w.step(0)).toBe('completed');
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ status: 'completed', step_index: 0, error: null, ended_at: iso(START) });
    expect(run.history).toHaveLength(1);
    expect(run.history[0]).toMatchObject({
      status: 'completed',
      output: { result: false, trace: ['event.data.plan eq "free": "pro" -> false'] },
      error: null,
    });
  });

  it("a message for another step than the run's is skipped", async () => {
    const w = world([condition('still-free', 'free'), send('nudge')]);
    expect(await w.step(1)).toBe('skipped');
    expect(w.runs.run(w.id)).toMatchObject({ step_index: 0, step_state: 'pending', attempt: 0 });
  });
});

describe('runStep: send_email', () => {
  it('sends once as the automation (sending only, no tenant), records the email id and moves on', async () => {
    const w = world([send('welcome'), condition('still-free', 'free')]);
    expect(await w.step(0)).toBe('completed');
    expect(w.sends).toHaveLength(1);
    const call = w.sends[0]!;
    expect(call.principal).toEqual({
      account,
      credential: { kind: 'automation', id: AUTO_ID, scopes: ['emails:send'], tenant: null, allowed_domains: null },
    });
    expect(call.request).toMatchObject({
      to: ['ada@example.com'],
      from: { email: 'hello@acme.test', name: 'Acme' },
      subject: 'Hi Ada',
      text: 'Welcome',
    });
    // Under the step's email id, derived from (run, step) and the step's start; a first attempt reads nothing first.
    expect(call.emailId).toBe(stepEmailId(w.id, 'welcome', iso(START)));
    expect(w.reads).toEqual([]);
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ status: 'running', step_index: 1, step_state: 'pending' });
    expect(run.history[0]).toMatchObject({
      key: 'welcome',
      type: 'send_email',
      status: 'completed',
      output: { email_id: 'msg_1', status: 'queued', to: ['ada@example.com'], missing: [] },
      error: null,
    });
  });

  it('a duplicate message for the step after it completed is skipped: no second send', async () => {
    const w = world([send('welcome'), condition('still-free', 'free')]);
    expect(await w.step(0)).toBe('completed');
    expect(await w.step(0)).toBe('skipped');
    expect(w.sends).toHaveLength(1);
    expect(w.runs.run(w.id).history).toHaveLength(1);
  });

  it('the last step sent completes the run', async () => {
    const w = world([send('welcome')]);
    expect(await w.step(0)).toBe('completed');
    expect(w.runs.run(w.id)).toMatchObject({ status: 'completed', ended_at: iso(START), error: null });
  });

  it("sends within the reach the run kept (its automation's maker's domains): the send core refuses the others, and the step fails", async () => {
    const w = world([send('welcome', { from: '{{event.data.sender}}' })], {
      allowedDomains: ['acme.test'],
      data: { sender: 'ceo@elsewhere.test' },
    });
    // The send core's rule, as checkSender applies it to the principal it is given.
    w.onSend(async ({ principal, request }) => {
      const domain = request.from!.email.split('@')[1]!;
      const allowed = principal.credential.allowed_domains;
      if (allowed && !allowed.includes(domain))
        throw new AppError(403, 'domain_not_allowed', `This API key may only send from ${allowed.join(', ')}.`);
      return { id: 'msg_1', status: 'queued' };
    });
    expect(await w.step(0)).toBe('failed');
    expect(w.sends[0]!.principal.credential).toMatchObject({ kind: 'automation', scopes: ['emails:send'], allowed_domains: ['acme.test'] });
    expect(w.runs.run(w.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^domain_not_allowed: /) });
  });

  it('a refusal (AppError 4xx) fails the run with the code in its error', async () => {
    const w = world([send('welcome'), condition('still-free', 'free')]);
    w.onSend(async () => {
      throw new AppError(422, 'recipient_not_allowed', 'ada@example.com is on the suppression list.', { details: { reason: 'bounce' } });
    });
    expect(await w.step(0)).toBe('failed');
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({
      status: 'failed',
      error: 'recipient_not_allowed: ada@example.com is on the suppression list.',
      ended_at: iso(START),
    });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'welcome',
        type: 'send_email',
        status: 'failed',
        started_at: iso(START),
        completed_at: iso(START),
        output: { status: 422, code: 'recipient_not_allowed', details: { reason: 'bounce' } },
        error: 'recipient_not_allowed: ada@example.com is on the suppression list.',
      },
    ]);
    expect(w.sends).toHaveLength(1);
  });

  it('a step whose event fills no recipient fails without sending', async () => {
    const w = world([send('welcome', { to: ['{{event.data.manager}}'] })]);
    expect(await w.step(0)).toBe('failed');
    expect(w.sends).toEqual([]);
    expect(w.runs.run(w.id)).toMatchObject({
      status: 'failed',
      error: "no recipient: the step's to ({{event.data.manager}}) is empty for this event",
    });
    expect(w.runs.run(w.id).history[0]).toMatchObject({ status: 'failed', output: { missing: ['event.data.manager'] } });
  });

  it('another error is rethrown with the step still claimed; after the lease a new message claims attempt 2 and sends into the same key', async () => {
    const w = world([send('welcome'), condition('still-free', 'free')]);
    const boom = new Error('socket hang up');
    w.onSend(async () => {
      throw boom;
    });
    await expect(w.step(0)).rejects.toBe(boom);
    expect(w.runs.run(w.id)).toMatchObject({
      status: 'running',
      step_index: 0,
      step_state: 'claimed',
      attempt: 1,
      lease_until: START + STEP_LEASE_MS,
      step_started_at: iso(START),
    });
    expect(w.runs.run(w.id).history).toEqual([]);

    // A redelivery while the lease holds (up to its last millisecond) claims nothing.
    w.at(START + STEP_LEASE_MS);
    expect(await w.step(0)).toBe('skipped');
    expect(w.sends).toHaveLength(1);

    w.at(START + STEP_LEASE_MS + 1);
    w.onSend(async () => ({ id: 'msg_again', status: 'queued' }));
    expect(await w.step(0)).toBe('completed');
    expect(w.runs.claims).toEqual([
      { run_id: w.id, index: 0, attempt: 1 },
      { run_id: w.id, index: 0, attempt: 2 },
    ]);
    expect(w.sends).toHaveLength(2);
    expect(w.sends[1]!.emailId).toBe(w.sends[0]!.emailId);
    // Attempt 2 looked for what attempt 1 sent (nothing: it failed) before sending again.
    expect(w.reads).toEqual([`email ${w.sends[0]!.emailId}`, `idempotency ${stepIdempotencyKey(w.id, 'welcome')}`]);
    expect(w.sends[1]!.request).toEqual(w.sends[0]!.request);
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ step_index: 1, step_state: 'pending', attempt: 0 });
    // The step started with its first claim.
    expect(run.history[0]).toMatchObject({
      status: 'completed',
      started_at: iso(START),
      completed_at: iso(START + STEP_LEASE_MS + 1),
      output: { email_id: 'msg_again' },
    });
  });

  it('a retry after an attempt that sent and then died answers with that email: nothing is sent again', async () => {
    const w = world([send('welcome')]);
    // The email was stored under the step's id, then the attempt lost its answer.
    w.onSend(async (call) => {
      w.emails.set(call.emailId, { id: call.emailId, status: 'queued' });
      throw new Error('socket hang up');
    });
    await expect(w.step(0)).rejects.toThrow('socket hang up');
    w.at(START + STEP_LEASE_MS + 1);
    expect(await w.step(0)).toBe('completed');
    expect(w.sends).toHaveLength(1);
    expect(w.runs.run(w.id).history[0]).toMatchObject({ status: 'completed', output: { email_id: w.sends[0]!.emailId, status: 'sent' } });
  });

  it('two attempts at once send one email: the one whose put is refused (EmailExists) answers with the email there', async () => {
    const w = world([send('welcome')]);
    w.onSend(async (call) => {
      w.emails.set(call.emailId, { id: call.emailId, status: 'queued' });
      throw new EmailExists(call.emailId);
    });
    expect(await w.step(0)).toBe('completed');
    expect(w.runs.run(w.id).history[0]).toMatchObject({ output: { email_id: stepEmailId(w.id, 'welcome', iso(START)), status: 'sent' } });
  });

  it('a step first attempted before 2026-11-28 (guarded by an idempotency record) is answered from that record on its retry', async () => {
    const w = world([send('welcome')]);
    w.onSend(async () => {
      throw new Error('socket hang up');
    });
    await expect(w.step(0)).rejects.toThrow('socket hang up');
    w.idempotencyRecords.set(`acc_1 ${stepIdempotencyKey(w.id, 'welcome')}`, { id: 'msg_01OLDER', status: 'sent' });
    w.at(START + STEP_LEASE_MS + 1);
    expect(await w.step(0)).toBe('completed');
    expect(w.sends).toHaveLength(1);
    expect(w.runs.run(w.id).history[0]).toMatchObject({ output: { email_id: 'msg_01OLDER', status: 'sent' } });
  });

  it('an AppError 5xx is retried like any other error (rethrown, still claimed)', async () => {
    const w = world([send('welcome')]);
    const unavailable = new AppError(503, 'service_unavailable', 'try later');
    w.onSend(async () => {
      throw unavailable;
    });
    await expect(w.step(0)).rejects.toBe(unavailable);
    expect(w.runs.run(w.id)).toMatchObject({ status: 'running', step_state: 'claimed', attempt: 1 });
  });

  it(`a step claimed more than MAX_ATTEMPTS (${MAX_ATTEMPTS}) times fails its run`, async () => {
    const w = world([send('welcome'), condition('still-free', 'free')]);
    w.onSend(async () => {
      throw new Error('timeout');
    });
    let t = START;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      w.at(t);
      await expect(w.step(0)).rejects.toThrow('timeout');
      t += STEP_LEASE_MS + 1;
    }
    expect(w.sends).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(w.sends.map((call) => call.emailId)).size).toBe(1);
    w.at(t);
    expect(await w.step(0)).toBe('failed');
    expect(w.sends).toHaveLength(MAX_ATTEMPTS);
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({
      status: 'failed',
      error: `step welcome did not complete after ${MAX_ATTEMPTS} attempts`,
      ended_at: iso(t),
    });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'welcome',
        type: 'send_email',
        status: 'failed',
        started_at: iso(START),
        completed_at: iso(t),
        output: null,
        error: `step welcome did not complete after ${MAX_ATTEMPTS} attempts`,
      },
    ]);
    expect(w.runs.claims.map((claim) => claim.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('runStep: delay', () => {
  it('schedules the wake-up at now + duration and parks the run waiting', async () => {
    const w = world([delay('wait', '2 hours'), condition('still-free', 'free')]);
    expect(await w.step(0)).toBe('waiting');
    expect(w.wakes).toEqual([{ runId: w.id, stepIndex: 0, at: iso(START + 2 * HOUR) }]);
    expect(w.runs.run(w.id)).toMatchObject({
      status: 'running',
      step_index: 0,
      step_state: 'waiting',
      wake_at: iso(START + 2 * HOUR),
      waiting_for: null,
      lease_until: null,
      attempt: 1,
    });
    // A duplicate step message while it waits claims nothing.
    expect(await w.step(0)).toBe('skipped');
    expect(w.wakes).toHaveLength(1);
  });

  it('the wake-up at its time completes the delay and moves on; a second wake-up is skipped', async () => {
    const w = world([delay('wait', 'PT30M'), condition('still-free', 'free')]);
    await w.step(0);
    w.at(START + 30 * 60_000);
    expect(await w.step(0, true)).toBe('woken');
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ status: 'running', step_index: 1, step_state: 'pending', wake_at: null, attempt: 0 });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'wait',
        type: 'delay',
        status: 'completed',
        started_at: iso(START),
        completed_at: iso(START + 30 * 60_000),
        output: { waited_until: iso(START + 30 * 60_000) },
        error: null,
      },
    ]);
    expect(await w.step(0, true)).toBe('skipped');
    expect(w.runs.run(w.id).history).toHaveLength(1);
  });

  // By design (run-step.ts): a wake-up is trusted whenever it comes (only the step's own schedule, at
  // wake_at, or the reconciler once past due, send one), so the clock is not compared with wake_at.
  it('a wake-up is trusted when it comes: the delay ends and the next step is pending', async () => {
    const w = world([delay('wait', '2 hours'), condition('still-free', 'free')]);
    await w.step(0);
    w.at(START + HOUR);
    expect(await w.step(0, true)).toBe('woken');
    expect(w.runs.run(w.id)).toMatchObject({
      step_index: 1,
      step_state: 'pending',
      history: [{ key: 'wait', status: 'completed', output: { waited_until: iso(START + 2 * HOUR) } }],
    });
  });

  it('a wake-up for a step that is not waiting (pending, or another index) is skipped', async () => {
    const w = world([delay('wait', '2 hours'), condition('still-free', 'free')]);
    expect(await w.step(0, true)).toBe('skipped');
    await w.step(0);
    expect(await w.step(1, true)).toBe('skipped');
    expect(w.runs.run(w.id)).toMatchObject({ step_index: 0, step_state: 'waiting' });
  });
});

describe('runStep: wait_for_event', () => {
  const steps = (onTimeout: string) => [wait('upgraded', onTimeout), send('thanks'), condition('last', 'free')];

  it('schedules the timeout and waits for the event', async () => {
    const w = world(steps('end'));
    expect(await w.step(0)).toBe('waiting');
    expect(w.wakes).toEqual([{ runId: w.id, stepIndex: 0, at: iso(START + 7 * DAY) }]);
    expect(w.runs.run(w.id)).toMatchObject({ step_state: 'waiting', waiting_for: 'user.upgraded', wake_at: iso(START + 7 * DAY) });
  });

  it('a timeout with on_timeout end completes the run', async () => {
    const w = world(steps('end'));
    await w.step(0);
    w.at(START + 7 * DAY);
    expect(await w.step(0, true)).toBe('woken');
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ status: 'completed', ended_at: iso(START + 7 * DAY), waiting_for: null });
    expect(run.history).toEqual([
      {
        index: 0,
        key: 'upgraded',
        type: 'wait_for_event',
        status: 'completed',
        started_at: iso(START),
        completed_at: iso(START + 7 * DAY),
        output: { event: 'user.upgraded', timed_out: true },
        error: null,
      },
    ]);
    expect(w.sends).toEqual([]);
  });

  it('a timeout with on_timeout continue goes to the following step', async () => {
    const w = world(steps('continue'));
    await w.step(0);
    w.at(START + 7 * DAY);
    expect(await w.step(0, true)).toBe('woken');
    expect(w.runs.run(w.id)).toMatchObject({ status: 'running', step_index: 1, step_state: 'pending', waiting_for: null });
  });

  it('a timeout with a step key jumps to that step', async () => {
    const w = world(steps('last'));
    await w.step(0);
    w.at(START + 7 * DAY);
    expect(await w.step(0, true)).toBe('woken');
    expect(w.runs.run(w.id)).toMatchObject({ status: 'running', step_index: 2, step_state: 'pending' });
    expect(await w.step(2)).toBe('completed');
    expect(w.runs.run(w.id)).toMatchObject({ status: 'completed' });
    expect(w.sends).toEqual([]);
  });
});

describe('runStep: paused and deleted automations', () => {
  it('a paused automation cancels the run at its next step, without sending', async () => {
    const w = world([send('welcome')], { status: 'paused' });
    expect(await w.step(0)).toBe('cancelled');
    expect(w.sends).toEqual([]);
    expect(w.runs.run(w.id)).toMatchObject({
      status: 'cancelled',
      error: 'the automation was paused before step welcome',
      ended_at: iso(START),
      history: [],
    });
    expect(await w.step(0)).toBe('skipped');
  });

  it('a deleted automation cancels the run at its next step', async () => {
    const w = world([send('welcome')], { status: 'deleted' });
    expect(await w.step(0)).toBe('cancelled');
    expect(w.sends).toEqual([]);
    expect(w.runs.run(w.id)).toMatchObject({ status: 'cancelled', error: 'the automation was deleted before step welcome' });
  });

  it('a pause after the first step stops the run before the second', async () => {
    const w = world([condition('still-free', 'free'), send('nudge')]);
    expect(await w.step(0)).toBe('completed');
    w.stored.automation!.status = 'paused';
    expect(await w.step(1)).toBe('cancelled');
    expect(w.sends).toEqual([]);
    expect(w.runs.run(w.id)).toMatchObject({ status: 'cancelled', step_index: 1, error: 'the automation was paused before step nudge' });
  });

  // docs/automations.md ("Activate and pause"): a run waiting on a delay is cancelled when it wakes.
  it('a run waiting on a delay (its last step) whose automation was paused is cancelled when it wakes, not completed', async () => {
    const w = world([send('welcome'), delay('cool-down', '1 day')]);
    expect(await w.step(0)).toBe('completed');
    expect(await w.step(1)).toBe('waiting');
    w.stored.automation!.status = 'paused';
    w.at(START + DAY);
    await w.step(1, true);
    expect(w.runs.run(w.id)).toMatchObject({ status: 'cancelled' });
  });
});

describe('runStep: a record naming no step', () => {
  it('a run whose step_index names no step fails with that error (not a throw: the message would come back forever)', async () => {
    const w = world([]);
    expect(await w.step(0)).toBe('failed');
    expect(w.sends).toEqual([]);
    const run = w.runs.run(w.id);
    expect(run).toMatchObject({ status: 'failed', error: 'the run has no step 0', ended_at: iso(START) });
    expect(run.history).toEqual([
      {
        index: 0,
        key: '0',
        type: 'unknown',
        status: 'failed',
        started_at: iso(START),
        completed_at: iso(START),
        output: null,
        error: 'the run has no step 0',
      },
    ]);
  });
});
