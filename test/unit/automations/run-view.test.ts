/**
 * The API's view of runs (shared/domain/automations/run-view.ts): the summary GET .../runs lists and the
 * detail GET .../runs/{run_id} shows, in every state a run can be in; nothing internal shows. And the
 * use case reading them (shared/usecases/automations/automation-runs.ts): ownership, 404s, the status filter's pages.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { Automation, Step } from '#shared/domain/automations/automation';
import type { Run, RunStatus, StepResult } from '#shared/domain/automations/run';
import { listRunsQuerySchema, toRunDetail, toRunSummary } from '#shared/domain/automations/run-view';
import type { PageRequest } from '#shared/adapters/store/paginate';
import { getAutomationRun, listAutomationRuns, type AutomationRunsDeps } from '#shared/usecases/automations/automation-runs';
import type { Principal } from '#shared/usecases/access/principal';
import { testRun } from './fake-runs';

const steps = [
  { key: 'welcome', type: 'send_email', from: 'a@acme.test', subject: 'Hi', text: 'Welcome', to: ['{{event.email}}'] },
  { key: 'wait-2-days', type: 'delay', duration: '2 days' },
  { key: 'upgraded', type: 'wait_for_event', event: 'user.upgraded', timeout: '7 days', on_timeout: 'end' },
  { key: 'thanks', type: 'send_email', from: 'a@acme.test', subject: 'Thanks', text: 'Thanks', to: ['{{event.email}}'] },
] as unknown as Step[];

const RUN_ID = 'run_01JD8Z6X4Q2T9V3N5M7K1H0G8F';
const EVENT = {
  id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8E',
  name: 'user.created',
  user_id: 'u-42',
  email: 'ada@example.com',
  data: { plan: 'pro', first_name: 'Ada' },
  created_at: '2026-11-23T10:00:00.000Z',
};

/** A run as the store reads it: at its first step, pending (started 100 ms after its event). */
function base(): Run {
  return {
    ...testRun(steps, {
      at: EVENT.created_at,
      now: '2026-11-23T10:00:00.100Z',
      automation: { id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8B', account_id: 'acc_01JD8Z6X4Q2T9V3N5M7K1H0G8A', version: 3 },
      event: EVENT,
      subject: 'user:u-42',
    }),
    id: RUN_ID,
  };
}

const sent: StepResult = {
  index: 0,
  key: 'welcome',
  type: 'send_email',
  status: 'completed',
  started_at: '2026-11-23T10:00:01.000Z',
  completed_at: '2026-11-23T10:00:01.250Z',
  output: { email_id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8C' },
  error: null,
};
const waited: StepResult = {
  index: 1,
  key: 'wait-2-days',
  type: 'delay',
  status: 'completed',
  started_at: '2026-11-23T10:00:02.000Z',
  completed_at: '2026-11-25T10:00:02.000Z',
  output: null,
  error: null,
};

const summaryEvent = {
  id: EVENT.id,
  name: 'user.created',
  user_id: 'u-42',
  email: 'ada@example.com',
  created_at: '2026-11-23T10:00:00.000Z',
};
const detailEvent = { ...summaryEvent, data: { plan: 'pro', first_name: 'Ada' } };

const summaryBase = {
  object: 'automation_run',
  id: RUN_ID,
  automation_id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8B',
  automation_version: 3,
  event: summaryEvent,
  error: null,
  created_at: '2026-11-23T10:00:00.100Z',
  ended_at: null,
};

const sentView = {
  index: 0,
  key: 'welcome',
  type: 'send_email',
  status: 'completed',
  started_at: '2026-11-23T10:00:01.000Z',
  completed_at: '2026-11-23T10:00:01.250Z',
  duration_ms: 250,
  output: { email_id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8C' },
  error: null,
};
const waitedView = {
  index: 1,
  key: 'wait-2-days',
  type: 'delay',
  status: 'completed',
  started_at: '2026-11-23T10:00:02.000Z',
  completed_at: '2026-11-25T10:00:02.000Z',
  duration_ms: 2 * 24 * 3600 * 1000,
  output: null,
  error: null,
};

/** What a running run's summary shows: its current step, the steps done, its last write. */
interface CurrentStep {
  index: number;
  key: string;
  type: string;
  state: string;
  wake_at: string | null;
  waiting_for: string | null;
}
const runningSummary = (current_step: CurrentStep, steps_completed: number, updated_at: string) => ({
  ...summaryBase,
  status: 'running',
  current_step,
  steps_completed,
  updated_at,
});
/** The detail's last step while the run is at it: the current step, not finished, with its first claim's time. */
const currentView = (current: CurrentStep, started_at: string | null) => ({
  index: current.index,
  key: current.key,
  type: current.type,
  status: current.state,
  started_at,
  completed_at: null,
  duration_ms: null,
  output: null,
  error: null,
  wake_at: current.wake_at,
  waiting_for: current.waiting_for,
});

describe('run views', () => {
  it('a new run: the first step pending, not started, nothing done', () => {
    const run = base();
    const current = { index: 0, key: 'welcome', type: 'send_email', state: 'pending', wake_at: null, waiting_for: null };
    const summary = runningSummary(current, 0, '2026-11-23T10:00:00.100Z');
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({ ...summary, event: detailEvent, steps: [currentView(current, null)] });
  });

  it('a claimed step shows as running, with its start', () => {
    const run: Run = {
      ...base(),
      step_state: 'claimed',
      lease_until: 1_800_000_000_000,
      attempt: 2,
      step_started_at: '2026-11-23T10:00:01.000Z',
      updated_at: '2026-11-23T10:00:01.500Z',
    };
    const current = { index: 0, key: 'welcome', type: 'send_email', state: 'running', wake_at: null, waiting_for: null };
    const summary = runningSummary(current, 0, '2026-11-23T10:00:01.500Z');
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({ ...summary, event: detailEvent, steps: [currentView(current, '2026-11-23T10:00:01.000Z')] });
  });

  it('a delay waiting until its end, after a completed send', () => {
    const run: Run = {
      ...base(),
      step_index: 1,
      step_state: 'waiting',
      attempt: 1,
      step_started_at: '2026-11-23T10:00:02.000Z',
      wake_at: '2026-11-25T10:00:02.000Z',
      history: [sent],
      updated_at: '2026-11-23T10:00:02.100Z',
    };
    const current = {
      index: 1,
      key: 'wait-2-days',
      type: 'delay',
      state: 'waiting',
      wake_at: '2026-11-25T10:00:02.000Z',
      waiting_for: null,
    };
    const summary = runningSummary(current, 1, '2026-11-23T10:00:02.100Z');
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({
      ...summary,
      event: detailEvent,
      steps: [sentView, currentView(current, '2026-11-23T10:00:02.000Z')],
    });
  });

  it('a wait for an event: the event it waits for and its timeout', () => {
    const run: Run = {
      ...base(),
      step_index: 2,
      step_state: 'waiting',
      attempt: 1,
      step_started_at: '2026-11-25T10:00:03.000Z',
      wake_at: '2026-12-02T10:00:03.000Z',
      waiting_for: 'user.upgraded',
      history: [sent, waited],
      updated_at: '2026-11-25T10:00:03.100Z',
    };
    const current = {
      index: 2,
      key: 'upgraded',
      type: 'wait_for_event',
      state: 'waiting',
      wake_at: '2026-12-02T10:00:03.000Z',
      waiting_for: 'user.upgraded',
    };
    const summary = runningSummary(current, 2, '2026-11-25T10:00:03.100Z');
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({
      ...summary,
      event: detailEvent,
      steps: [sentView, waitedView, currentView(current, '2026-11-25T10:00:03.000Z')],
    });
  });

  it('a completed run: no current step, every step from the history in order', () => {
    const thanks: StepResult = {
      index: 3,
      key: 'thanks',
      type: 'send_email',
      status: 'skipped',
      started_at: '2026-11-26T08:00:00.000Z',
      completed_at: '2026-11-26T08:00:00.000Z',
      output: null,
      error: null,
    };
    const upgraded: StepResult = {
      index: 2,
      key: 'upgraded',
      type: 'wait_for_event',
      status: 'completed',
      started_at: '2026-11-25T10:00:03.000Z',
      completed_at: '2026-11-26T08:00:00.000Z',
      output: { event_id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8D' },
      error: null,
    };
    const run: Run = {
      ...base(),
      status: 'completed',
      step_index: 3,
      step_state: 'pending',
      history: [sent, waited, upgraded, thanks],
      updated_at: '2026-11-26T08:00:00.000Z',
      ended_at: '2026-11-26T08:00:00.000Z',
    };
    const summary = {
      ...summaryBase,
      status: 'completed',
      current_step: null,
      steps_completed: 4,
      updated_at: '2026-11-26T08:00:00.000Z',
      ended_at: '2026-11-26T08:00:00.000Z',
    };
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({
      ...summary,
      event: detailEvent,
      steps: [
        sentView,
        waitedView,
        {
          index: 2,
          key: 'upgraded',
          type: 'wait_for_event',
          status: 'completed',
          started_at: '2026-11-25T10:00:03.000Z',
          completed_at: '2026-11-26T08:00:00.000Z',
          duration_ms: 22 * 3600 * 1000 - 3000,
          output: { event_id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8D' },
          error: null,
        },
        {
          index: 3,
          key: 'thanks',
          type: 'send_email',
          status: 'skipped',
          started_at: '2026-11-26T08:00:00.000Z',
          completed_at: '2026-11-26T08:00:00.000Z',
          duration_ms: 0,
          output: null,
          error: null,
        },
      ],
    });
  });

  it('a failed run: the failing step and the run carry the error', () => {
    const failure = 'Recipient ada@example.com is suppressed (bounce).';
    const failedStep: StepResult = {
      index: 0,
      key: 'welcome',
      type: 'send_email',
      status: 'failed',
      started_at: '2026-11-23T10:00:01.000Z',
      completed_at: '2026-11-23T10:00:01.040Z',
      output: null,
      error: failure,
    };
    const run: Run = {
      ...base(),
      status: 'failed',
      step_state: 'pending',
      history: [failedStep],
      error: failure,
      updated_at: '2026-11-23T10:00:01.040Z',
      ended_at: '2026-11-23T10:00:01.040Z',
    };
    const summary = {
      ...summaryBase,
      status: 'failed',
      current_step: null,
      steps_completed: 1,
      error: failure,
      updated_at: '2026-11-23T10:00:01.040Z',
      ended_at: '2026-11-23T10:00:01.040Z',
    };
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({
      ...summary,
      event: detailEvent,
      steps: [
        {
          index: 0,
          key: 'welcome',
          type: 'send_email',
          status: 'failed',
          started_at: '2026-11-23T10:00:01.000Z',
          completed_at: '2026-11-23T10:00:01.040Z',
          duration_ms: 40,
          output: null,
          error: failure,
        },
      ],
    });
  });

  it('a cancelled run (cancelled while waiting): the reason, no current step, the steps it finished', () => {
    const reason = 'cancelled by event user.deleted';
    // The store's cancel leaves step_state, wake_at and waiting_for as they were: none of it shows.
    const run: Run = {
      ...base(),
      status: 'cancelled',
      step_index: 2,
      step_state: 'waiting',
      step_started_at: '2026-11-25T10:00:03.000Z',
      wake_at: '2026-12-02T10:00:03.000Z',
      waiting_for: 'user.upgraded',
      history: [sent, waited],
      error: reason,
      updated_at: '2026-11-25T12:00:00.000Z',
      ended_at: '2026-11-25T12:00:00.000Z',
    };
    const summary = {
      ...summaryBase,
      status: 'cancelled',
      current_step: null,
      steps_completed: 2,
      error: reason,
      updated_at: '2026-11-25T12:00:00.000Z',
      ended_at: '2026-11-25T12:00:00.000Z',
    };
    expect(toRunSummary(run)).toEqual(summary);
    expect(toRunDetail(run)).toEqual({ ...summary, event: detailEvent, steps: [sentView, waitedView] });
  });

  it('shows nothing internal: no account, lease, attempt, subject, keys or copy of the steps', () => {
    const run = {
      ...base(),
      step_state: 'claimed',
      lease_until: 1_800_000_000_000,
      attempt: 3,
      PK: 'RUN#x',
      SK: 'RUN#x',
      GSI1PK: 'x',
      GSI2PK: 'y',
    } as Run;
    for (const view of [toRunSummary(run), toRunDetail(run)]) {
      const text = JSON.stringify(view);
      for (const internal of [
        'account_id',
        'acc_',
        'lease_until',
        'attempt',
        'subject',
        'user:u-42',
        'automation_name',
        'PK',
        'GSI',
        '"from"',
        'duration"',
      ]) {
        expect([internal, text.includes(internal)]).toEqual([internal, false]);
      }
    }
    expect(Object.keys(toRunSummary(run).event)).not.toContain('data');
  });

  it('reads ?limit&cursor&status like the other lists', () => {
    expect(listRunsQuerySchema.parse({})).toEqual({ limit: 25 });
    expect(listRunsQuerySchema.parse({ limit: '2', cursor: 'abc', status: 'failed' })).toEqual({
      limit: 2,
      cursor: 'abc',
      status: 'failed',
    });
    for (const bad of [{ limit: '0' }, { limit: '101' }, { limit: '1.5' }, { status: 'claimed' }, { status: 'waiting' }]) {
      expect(listRunsQuerySchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('reading runs (use case)', () => {
  const AUTO = 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8B';
  const OTHER_AUTO = 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G9B';
  const ACCOUNT = 'acc_01JD8Z6X4Q2T9V3N5M7K1H0G8A';

  function principal(accountId = ACCOUNT, tenant: string | null = null): Principal {
    return {
      account: { id: accountId } as Account,
      credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant, allowed_domains: null },
    };
  }

  /**
   * Runs newest first; a cursor is the position after the last item returned (as opaque as the store's).
   * The store filters by status (RunRepository.list: a filtered query, its bounded reads tested with
   * queryPage): here, the runs in that status, paged.
   */
  function deps(statuses: RunStatus[], automationIds = [AUTO, OTHER_AUTO]) {
    const runs = statuses.map((status, i): Run => ({ ...base(), id: `run_01JD8Z6X4Q2T9V3N5M7K1H${String(i).padStart(4, '0')}`, status }));
    const reads: PageRequest[] = [];
    const filters: (RunStatus | undefined)[] = [];
    const automations = new Map(automationIds.map((id) => [id, { id, account_id: ACCOUNT } as Automation]));
    const fake: AutomationRunsDeps = {
      automations: { get: async (accountId, id) => (automations.get(id)?.account_id === accountId ? automations.get(id)! : null) },
      runs: {
        get: async (id) => runs.find((run) => run.id === id) ?? null,
        list: async (automationId, page, status) => {
          reads.push(page);
          filters.push(status);
          const of = runs.filter((run) => run.automation_id === automationId && (status === undefined || run.status === status));
          const start = page.cursor ? Number(page.cursor) : 0;
          const items = of.slice(start, start + page.limit);
          return { items, next_cursor: start + page.limit < of.length ? String(start + page.limit) : null };
        },
      },
    };
    return { fake, runs, reads, filters };
  }

  it('lists pages of the store as they are without a status', async () => {
    const { fake, runs, reads, filters } = deps(['running', 'failed', 'completed']);
    const page = await listAutomationRuns(fake, principal(), AUTO, { limit: 2 });
    expect(page).toEqual({ items: [runs[0], runs[1]], next_cursor: '2' });
    expect(reads).toEqual([{ limit: 2, cursor: undefined }]);
    expect(filters).toEqual([undefined]);
  });

  it('asks the store for one status: its pages as they are, one read each, resuming at the cursor', async () => {
    const { fake, runs, reads, filters } = deps(['failed', 'completed', 'completed', 'failed', 'completed', 'failed', 'failed']);
    const first = await listAutomationRuns(fake, principal(), AUTO, { limit: 2, status: 'failed' });
    expect(first).toEqual({ items: [runs[0], runs[3]], next_cursor: '2' });
    const second = await listAutomationRuns(fake, principal(), AUTO, { limit: 2, status: 'failed', cursor: first.next_cursor! });
    expect(second).toEqual({ items: [runs[5], runs[6]], next_cursor: null });
    const none = await listAutomationRuns(fake, principal(), AUTO, { limit: 10, status: 'cancelled' });
    expect(none).toEqual({ items: [], next_cursor: null });
    expect(reads).toEqual([
      { limit: 2, cursor: undefined },
      { limit: 2, cursor: '2' },
      { limit: 10, cursor: undefined },
    ]);
    expect(filters).toEqual(['failed', 'failed', 'cancelled']);
  });

  it("answers 404 for another account's automation, a malformed id, another automation's run, another account's run", async () => {
    const { fake, runs } = deps(['running']);
    expect(await getAutomationRun(fake, principal(), AUTO, runs[0]!.id)).toBe(runs[0]);
    const refusals: [string, Promise<unknown>][] = [
      ['other account', listAutomationRuns(fake, principal('acc_01JD8Z6X4Q2T9V3N5M7K1H0G9A'), AUTO, { limit: 5 })],
      ['other account run', getAutomationRun(fake, principal('acc_01JD8Z6X4Q2T9V3N5M7K1H0G9A'), AUTO, runs[0]!.id)],
      ['malformed automation', listAutomationRuns(fake, principal(), 'nope', { limit: 5 })],
      ['malformed run', getAutomationRun(fake, principal(), AUTO, 'nope')],
      ['unknown run', getAutomationRun(fake, principal(), AUTO, 'run_01JD8Z6X4Q2T9V3N5M7K1H9999')],
      ['other automation', getAutomationRun(fake, principal(), OTHER_AUTO, runs[0]!.id)],
    ];
    for (const [what, promise] of refusals) {
      await expect(
        promise.then(
          () => what,
          (error) => [what, error.status, error.code],
        ),
      ).resolves.toEqual([what, 404, 'not_found']);
    }
    // The run record says another account: not shown, even under the caller's automation.
    runs[0]!.account_id = 'acc_01JD8Z6X4Q2T9V3N5M7K1H0G9A';
    await expect(getAutomationRun(fake, principal(), AUTO, runs[0]!.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a key limited to a tenant (403 forbidden)', async () => {
    const { fake, runs } = deps(['running']);
    await expect(listAutomationRuns(fake, principal(ACCOUNT, 'ten_1'), AUTO, { limit: 5 })).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    await expect(getAutomationRun(fake, principal(ACCOUNT, 'ten_1'), AUTO, runs[0]!.id)).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });
});
