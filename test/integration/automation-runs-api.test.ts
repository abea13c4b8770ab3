/**
 * GET /automations/{id}/runs and GET /automations/{id}/runs/{run_id} over HTTP against the running local
 * cloud (docs/automations.md, "Runs API"). Automations are created through the API; their runs are written
 * straight through the run store (start, completeStep, waitStep, cancel) in states the engine leaves
 * alone while the test reads them: ended, claimed under a long lease, waiting until far in the future.
 * (A pending run would be handed to the automation-steps worker by the outbox at once, so its view is
 * covered by the unit tests: test/unit/automations/run-view.test.ts.)
 */
import { newId } from '#shared/domain/ids';
import { newRun, type Run, type StepResult } from '#shared/domain/automations/run';
import type { Step } from '#shared/domain/automations/automation';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';

const DAY_MS = 24 * 3600 * 1000;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const unique = (prefix: string) => `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const definitionSteps = [
  { key: 'welcome', type: 'send_email', from: 'Acme <hello@example.com>', subject: 'Welcome', text: 'Hi' },
  { key: 'wait-2-days', type: 'delay', duration: '2 days' },
  { key: 'upgraded', type: 'wait_for_event', event: 'user.upgraded', timeout: '7 days' },
  { key: 'thanks', type: 'send_email', from: 'Acme <hello@example.com>', subject: 'Thanks', text: 'Thanks' },
];

interface Created {
  id: string;
  account_id: string;
  name: string;
  version: number;
  steps: Step[];
  allowed_domains: string[] | null;
}

async function createAutomation(account: TestAccount): Promise<Created> {
  const response = await api('POST', '/automations', {
    key: account.key,
    body: { name: 'Welcome series', trigger: { event: unique('user.created') }, steps: definitionSteps },
  });
  expect([response.status, response.body.error]).toEqual([201, undefined]);
  const automation = response.body.automation;
  return {
    id: automation.id,
    account_id: account.id,
    name: automation.name,
    version: automation.version,
    steps: automation.steps,
    allowed_domains: automation.allowed_domains,
  };
}

const runs = () => stack().services.runs;
const iso = (ms: number) => new Date(ms).toISOString();

function result(automation: Created, index: number, startedMs: number, durationMs: number, extra: Partial<StepResult> = {}): StepResult {
  const step = automation.steps[index]!;
  return {
    index,
    key: step.key,
    type: step.type,
    status: 'completed',
    started_at: iso(startedMs),
    completed_at: iso(startedMs + durationMs),
    output: null,
    error: null,
    ...extra,
  };
}

/**
 * A run started by an event at `eventMs` (its id sorts by that time), written claimed at `index` by
 * attempt 1 under a lease far in the future, with `history` already done: nothing in the engine takes it.
 */
async function startClaimed(automation: Created, eventMs: number, index: number, history: StepResult[]): Promise<Run> {
  const now = Date.now();
  const run = newRun({
    automation,
    event: {
      id: newId('ae', eventMs),
      name: 'user.created',
      user_id: 'u-42',
      email: 'ada@example.com',
      data: { plan: 'pro', first_name: 'Ada' },
      created_at: iso(eventMs),
    },
    subject: 'user:u-42',
    now: new Date(now),
  });
  const claimed: Run = {
    ...run,
    step_index: index,
    step_state: 'claimed',
    lease_until: now + DAY_MS,
    attempt: 1,
    step_started_at: iso(now),
    history,
  };
  expect(await runs().start(claimed)).toEqual({ kind: 'started' });
  return claimed;
}

describe('automation runs API', () => {
  let account: TestAccount;
  let a: Created;
  let b: Created;
  /** Runs of `a`, oldest first: completed, failed, waiting for an event. */
  let completed: Run;
  let failed: Run;
  let waiting: Run;
  /** Runs of `b`: claimed (running), cancelled. */
  let running: Run;
  let cancelled: Run;
  const base = Date.now() - 3 * DAY_MS;

  beforeAll(async () => {
    account = await newAccount();
    a = await createAutomation(account);
    b = await createAutomation(account);

    const done = [
      result(a, 0, base + 1_000, 250, { output: { email_id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8C' } }),
      result(a, 1, base + 2_000, 2 * DAY_MS),
      result(a, 2, base + 2 * DAY_MS + 3_000, 60_000),
    ];
    const c = await startClaimed(a, base, 3, done);
    const last = result(a, 3, base + 2 * DAY_MS + 70_000, 40, { status: 'skipped' });
    completed = (await runs().completeStep(c.id, 3, 1, last, { end: 'completed' }))!;
    expect(completed).toMatchObject({ status: 'completed' });

    const f = await startClaimed(a, base + 1_000, 0, []);
    const refusal = 'Recipient ada@example.com is suppressed (bounce).';
    failed = (await runs().completeStep(f.id, 0, 1, result(a, 0, base + 2_000, 40, { status: 'failed', error: refusal }), {
      end: 'failed',
      error: refusal,
    }))!;
    expect(failed).toMatchObject({ status: 'failed', error: refusal });

    const w = await startClaimed(a, base + 2_000, 2, done.slice(0, 2));
    waiting = (await runs().waitStep(w.id, 2, 1, Date.now() + 7 * DAY_MS, 'user.upgraded', iso(Date.now())))!;
    expect(waiting).toMatchObject({ status: 'running', step_state: 'waiting', waiting_for: 'user.upgraded' });

    running = await startClaimed(b, base, 1, [result(b, 0, base + 1_000, 100)]);
    const x = await startClaimed(b, base + 1_000, 0, []);
    cancelled = (await runs().cancel(x.id, iso(Date.now()), 'cancelled by event user.deleted'))!;
    expect(cancelled).toMatchObject({ status: 'cancelled' });
  });

  it('lists runs newest first, page by page (limit=2 over 3 runs)', async () => {
    const first = await api('GET', `/automations/${a.id}/runs?limit=2`, { key: account.key });
    expect(first.status).toBe(200);
    expect(first.body.runs.map((run: { id: string }) => run.id)).toEqual([waiting.id, failed.id]);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: expect.any(String) });

    const second = await api('GET', `/automations/${a.id}/runs?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      key: account.key,
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      runs: [expect.objectContaining({ id: completed.id, status: 'completed' })],
      has_more: false,
      next_cursor: null,
    });

    const all = await api('GET', `/automations/${a.id}/runs`, { key: account.key });
    expect(all.body.runs.map((run: { id: string }) => run.id)).toEqual([waiting.id, failed.id, completed.id]);
    expect([all.body.has_more, all.body.next_cursor]).toEqual([false, null]);
  });

  it('summarises each run: where it is, how far it got, no event data and nothing internal', async () => {
    const page = await api('GET', `/automations/${a.id}/runs`, { key: account.key });
    const [w, f, c] = page.body.runs;
    const event = (run: Run) => ({
      id: run.event.id,
      name: 'user.created',
      user_id: 'u-42',
      email: 'ada@example.com',
      created_at: run.event.created_at,
    });
    expect(w).toEqual({
      object: 'automation_run',
      id: waiting.id,
      automation_id: a.id,
      automation_version: 1,
      status: 'running',
      event: event(waiting),
      current_step: {
        index: 2,
        key: 'upgraded',
        type: 'wait_for_event',
        state: 'waiting',
        wake_at: waiting.wake_at,
        waiting_for: 'user.upgraded',
      },
      steps_completed: 2,
      error: null,
      created_at: waiting.created_at,
      updated_at: waiting.updated_at,
      ended_at: null,
    });
    expect(w.current_step.wake_at).toMatch(TIMESTAMP);
    expect(f).toMatchObject({
      status: 'failed',
      current_step: null,
      steps_completed: 1,
      error: 'Recipient ada@example.com is suppressed (bounce).',
      ended_at: expect.stringMatching(TIMESTAMP),
    });
    expect(c).toMatchObject({ status: 'completed', current_step: null, steps_completed: 4, error: null, ended_at: completed.ended_at });
    for (const internal of ['account_id', 'lease_until', 'attempt', 'subject', 'GSI', '"PK"', 'data', 'automation_name', 'duration"'])
      expect([internal, page.text.includes(internal)]).toEqual([internal, false]);
  });

  it('filters by status (a page may hold fewer than limit; has_more says whether to go on)', async () => {
    const onlyFailed = await api('GET', `/automations/${a.id}/runs?status=failed`, { key: account.key });
    expect([onlyFailed.status, onlyFailed.body.runs.map((run: { id: string }) => run.id), onlyFailed.body.has_more]).toEqual([
      200,
      [failed.id],
      false,
    ]);
    const onlyRunning = await api('GET', `/automations/${b.id}/runs?status=running`, { key: account.key });
    expect(onlyRunning.body.runs.map((run: { id: string }) => run.id)).toEqual([running.id]);
    expect(
      (await api('GET', `/automations/${b.id}/runs?status=cancelled`, { key: account.key })).body.runs.map((run: { id: string }) => run.id),
    ).toEqual([cancelled.id]);

    // Walking the filtered pages one run at a time finds every completed or failed run once.
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const response: { body: any } = await api(
        'GET',
        `/automations/${a.id}/runs?status=completed&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: account.key },
      );
      seen.push(...response.body.runs.map((run: { id: string }) => run.id));
      cursor = response.body.next_cursor;
      if (!response.body.has_more) break;
    }
    expect(seen).toEqual([completed.id]);
  });

  it('refuses bad query parameters with 400 naming them', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['status=claimed', 'status'],
      ['cursor=bm9wZQ', 'cursor'],
    ] as const) {
      const response = await api('GET', `/automations/${a.id}/runs?${query}`, { key: account.key });
      expect([
        query,
        response.status,
        response.body.error.code,
        response.body.error.details.fields.map((f: { field: string }) => f.field),
      ]).toEqual([query, 400, 'validation_error', [field]]);
    }
    // A cursor of another automation's list is not accepted for this one.
    const other = await api('GET', `/automations/${b.id}/runs?limit=1`, { key: account.key });
    const crossed = await api('GET', `/automations/${a.id}/runs?cursor=${encodeURIComponent(other.body.next_cursor)}`, {
      key: account.key,
    });
    expect([crossed.status, crossed.body.error.code]).toEqual([400, 'validation_error']);
  });

  it('shows one run in detail: every step with its timing, then the current one; the event with its data', async () => {
    const detail = await api('GET', `/automations/${a.id}/runs/${completed.id}`, { key: account.key });
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual({
      run: {
        object: 'automation_run',
        id: completed.id,
        automation_id: a.id,
        automation_version: 1,
        status: 'completed',
        event: {
          id: completed.event.id,
          name: 'user.created',
          user_id: 'u-42',
          email: 'ada@example.com',
          data: { plan: 'pro', first_name: 'Ada' },
          created_at: iso(base),
        },
        current_step: null,
        steps_completed: 4,
        error: null,
        created_at: completed.created_at,
        updated_at: completed.updated_at,
        ended_at: completed.ended_at,
        steps: [
          {
            index: 0,
            key: 'welcome',
            type: 'send_email',
            status: 'completed',
            started_at: iso(base + 1_000),
            completed_at: iso(base + 1_250),
            duration_ms: 250,
            output: { email_id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8C' },
            error: null,
          },
          {
            index: 1,
            key: 'wait-2-days',
            type: 'delay',
            status: 'completed',
            started_at: iso(base + 2_000),
            completed_at: iso(base + 2_000 + 2 * DAY_MS),
            duration_ms: 2 * DAY_MS,
            output: null,
            error: null,
          },
          {
            index: 2,
            key: 'upgraded',
            type: 'wait_for_event',
            status: 'completed',
            started_at: iso(base + 2 * DAY_MS + 3_000),
            completed_at: iso(base + 2 * DAY_MS + 63_000),
            duration_ms: 60_000,
            output: null,
            error: null,
          },
          {
            index: 3,
            key: 'thanks',
            type: 'send_email',
            status: 'skipped',
            started_at: iso(base + 2 * DAY_MS + 70_000),
            completed_at: iso(base + 2 * DAY_MS + 70_040),
            duration_ms: 40,
            output: null,
            error: null,
          },
        ],
      },
    });
    for (const internal of ['account_id', 'lease_until', 'attempt', 'subject', 'GSI', '"PK"', 'automation_name', '"from"'])
      expect([internal, detail.text.includes(internal)]).toEqual([internal, false]);

    const wait = await api('GET', `/automations/${a.id}/runs/${waiting.id}`, { key: account.key });
    expect(wait.body.run.steps.map((step: { key: string; status: string }) => [step.key, step.status])).toEqual([
      ['welcome', 'completed'],
      ['wait-2-days', 'completed'],
      ['upgraded', 'waiting'],
    ]);
    expect(wait.body.run.steps[2]).toEqual({
      index: 2,
      key: 'upgraded',
      type: 'wait_for_event',
      status: 'waiting',
      started_at: waiting.step_started_at,
      completed_at: null,
      duration_ms: null,
      output: null,
      error: null,
      wake_at: waiting.wake_at,
      waiting_for: 'user.upgraded',
    });

    const fail = await api('GET', `/automations/${a.id}/runs/${failed.id}`, { key: account.key });
    expect(fail.body.run).toMatchObject({
      status: 'failed',
      error: 'Recipient ada@example.com is suppressed (bounce).',
      steps: [{ key: 'welcome', status: 'failed', error: 'Recipient ada@example.com is suppressed (bounce).', duration_ms: 40 }],
    });

    const claimed = await api('GET', `/automations/${b.id}/runs/${running.id}`, { key: account.key });
    expect(claimed.body.run.current_step).toEqual({
      index: 1,
      key: 'wait-2-days',
      type: 'delay',
      state: 'running',
      wake_at: null,
      waiting_for: null,
    });
    expect(claimed.body.run.steps[1]).toEqual({
      index: 1,
      key: 'wait-2-days',
      type: 'delay',
      status: 'running',
      started_at: running.step_started_at,
      completed_at: null,
      duration_ms: null,
      output: null,
      error: null,
      wake_at: null,
      waiting_for: null,
    });

    const stopped = await api('GET', `/automations/${b.id}/runs/${cancelled.id}`, { key: account.key });
    expect(stopped.body.run).toMatchObject({
      status: 'cancelled',
      error: 'cancelled by event user.deleted',
      current_step: null,
      steps: [],
      ended_at: expect.stringMatching(TIMESTAMP),
    });
  });

  it("answers 404 for another account's automation or run, another automation's run, and ids that cannot exist", async () => {
    const other = await newAccount();
    const notFound = [
      [other.key, `/automations/${a.id}/runs`],
      [other.key, `/automations/${a.id}/runs/${completed.id}`],
      [account.key, `/automations/${a.id}/runs/${running.id}`],
      [account.key, `/automations/${b.id}/runs/${completed.id}`],
      [account.key, `/automations/${a.id}/runs/run_01JD8Z6X4Q2T9V3N5M7K1H0G8F`],
      [account.key, `/automations/${a.id}/runs/nope`],
      [account.key, `/automations/${a.id}/runs/${completed.id.toLowerCase()}`],
      [account.key, '/automations/auto_nope/runs'],
      [account.key, `/automations/${newId('auto')}/runs/${completed.id}`],
    ] as const;
    for (const [key, path] of notFound) {
      const response = await api('GET', path, { key });
      expect([path, response.status, response.body.error.code]).toEqual([path, 404, 'not_found']);
    }
    // Its own (empty) automation lists nothing of the first account's.
    const own = await createAutomation(other);
    expect((await api('GET', `/automations/${own.id}/runs`, { key: other.key })).body).toEqual({
      runs: [],
      has_more: false,
      next_cursor: null,
    });
  });

  it('refuses a key limited to a tenant (403 forbidden); reading needs account:read or full', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const automation = await createAutomation(owner);
    const run = await startClaimed(automation, Date.now() - DAY_MS, 0, []);
    const tenant = await createTenant(owner, {}, 'runs');
    const tenantKey = (
      await api('POST', '/api-keys', { key: owner.key, body: { name: 'tenant', scopes: ['full'], tenant: tenant.external_id } })
    ).body.secret as string;
    for (const path of [
      `/automations/${automation.id}/runs`,
      `/automations/${automation.id}/runs/${run.id}`,
      `/automations/${automation.id}/runs/run_nope`,
    ]) {
      const response = await api('GET', path, { key: tenantKey });
      expect([path, response.status, response.body.error.code]).toEqual([path, 403, 'forbidden']);
    }

    const keyWith = async (scopes: string[]) =>
      (await api('POST', '/api-keys', { key: owner.key, body: { name: 'scoped', scopes } })).body.secret as string;
    const reader = await keyWith(['account:read']);
    expect((await api('GET', `/automations/${automation.id}/runs`, { key: reader })).body.runs.map((r: { id: string }) => r.id)).toEqual([
      run.id,
    ]);
    expect((await api('GET', `/automations/${automation.id}/runs/${run.id}`, { key: reader })).body.run.id).toBe(run.id);
    const sender = await keyWith(['emails:send']);
    for (const path of [`/automations/${automation.id}/runs`, `/automations/${automation.id}/runs/${run.id}`]) {
      const response = await api('GET', path, { key: sender });
      expect([path, response.status, response.body.error.code]).toEqual([path, 403, 'insufficient_scope']);
    }
    expect((await api('GET', `/automations/${automation.id}/runs`, {})).status).toBe(401);
  });

  it('answers 404 once the automation is deleted (its runs stay in the store)', async () => {
    const gone = await createAutomation(account);
    const run = await startClaimed(gone, Date.now() - DAY_MS, 0, []);
    expect((await api('GET', `/automations/${gone.id}/runs/${run.id}`, { key: account.key })).status).toBe(200);
    expect((await api('DELETE', `/automations/${gone.id}`, { key: account.key })).status).toBe(200);
    for (const path of [`/automations/${gone.id}/runs`, `/automations/${gone.id}/runs/${run.id}`]) {
      const response = await api('GET', path, { key: account.key });
      expect([path, response.status, response.body.error.code]).toEqual([path, 404, 'not_found']);
    }
    expect(await runs().get(run.id)).not.toBeNull();
  });
});
