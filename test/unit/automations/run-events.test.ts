/** The automation.* webhooks a run's write stands for (runEvents: the image before and after the write). */
import type { Step } from '#shared/domain/automations/automation';
import { runEvents } from '#shared/domain/automations/run-events';
import type { Run, StepResult } from '#shared/domain/automations/run';
import { testRun } from './fake-runs';

const CREATED = '2026-11-23T10:00:00.000Z';
const LATER = '2026-11-23T10:05:00.000Z';
const EVT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

const steps = [
  { key: 'still-free', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'free' },
  { key: 'welcome', type: 'send_email', to: ['{{event.email}}'], from: 'a@acme.test', subject: 'Hi', text: 'Hello' },
] as Step[];

const started = (eventId = 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8F'): Run =>
  testRun(steps, { at: CREATED, automation: { version: 3 }, event: { id: eventId, data: { plan: 'free' } } });

/** The webhook of `run` the write publishes: the spec's payload (and the additions), with `data` for what varies. */
const webhook = (run: Run, type: string, createdAt: string, data: Record<string, unknown>) => ({
  id: expect.stringMatching(EVT_ID),
  type,
  account_id: 'acc_1',
  tenant: null,
  created_at: createdAt,
  data: {
    automation_id: run.automation_id,
    automation_name: 'Welcome series',
    run_id: run.id,
    event_name: 'user.created',
    event_id: run.event.id,
    error: null,
    ...data,
  },
});

function result(index: number, status: StepResult['status'], error: string | null = null): StepResult {
  const step = steps[index]!;
  return { index, key: step.key, type: step.type, status, started_at: CREATED, completed_at: LATER, output: null, error };
}

const claimed = (run: Run): Run => ({
  ...run,
  step_state: 'claimed',
  attempt: 1,
  lease_until: Date.parse(CREATED) + 45_000,
  step_started_at: CREATED,
});

describe('runEvents', () => {
  it('a created run is automation.started at step 0, with every field of the payload', () => {
    const run = started();
    const events = runEvents(null, run);
    expect(events).toEqual([
      {
        id: expect.stringMatching(EVT_ID),
        type: 'automation.started',
        account_id: 'acc_1',
        tenant: null,
        created_at: CREATED,
        data: {
          automation_id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
          automation_name: 'Welcome series',
          run_id: run.id,
          status: 'running',
          event_name: 'user.created',
          event_id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
          step_index: 0,
          step_key: 'still-free',
          step_type: 'condition',
          error: null,
        },
      },
    ]);
  });

  it('a claim (no result appended, still running) publishes nothing', () => {
    const run = started();
    expect(runEvents(run, claimed(run))).toEqual([]);
  });

  it('a completed step is automation.step_completed with status running and the step', () => {
    const before = claimed(started());
    const after: Run = {
      ...before,
      step_index: 1,
      step_state: 'pending',
      attempt: 0,
      lease_until: null,
      step_started_at: null,
      history: [result(0, 'completed')],
      updated_at: LATER,
    };
    expect(runEvents(before, after)).toEqual([
      webhook(before, 'automation.step_completed', LATER, {
        status: 'running',
        step_index: 0,
        step_key: 'still-free',
        step_type: 'condition',
      }),
    ]);
  });

  it('the last step completing in the same write is step_completed then automation.completed (the last step run)', () => {
    const first = started();
    const before: Run = claimed({ ...first, step_index: 1, history: [result(0, 'completed')] });
    const after: Run = {
      ...before,
      status: 'completed',
      attempt: 0,
      lease_until: null,
      history: [...before.history, result(1, 'completed')],
      updated_at: LATER,
      ended_at: LATER,
    };
    const events = runEvents(before, after);
    expect(events.map((e) => e.type)).toEqual(['automation.step_completed', 'automation.completed']);
    expect(events[0]!.data).toMatchObject({ status: 'running', step_index: 1, step_key: 'welcome', step_type: 'send_email', error: null });
    expect(events[1]).toMatchObject({
      created_at: LATER,
      data: { status: 'completed', step_index: 1, step_key: 'welcome', step_type: 'send_email', error: null, run_id: after.id },
    });
  });

  it('a false condition ends the run: its step_completed and automation.completed at that step', () => {
    const before = claimed(started());
    const after: Run = {
      ...before,
      status: 'completed',
      attempt: 0,
      lease_until: null,
      history: [{ ...result(0, 'completed'), output: { result: false, trace: [] } }],
      updated_at: LATER,
      ended_at: LATER,
    };
    const events = runEvents(before, after);
    expect(events.map((e) => [e.type, e.data.status, e.data.step_index, e.data.step_key, e.data.error])).toEqual([
      ['automation.step_completed', 'running', 0, 'still-free', null],
      ['automation.completed', 'completed', 0, 'still-free', null],
    ]);
  });

  it('a failed step is automation.failed with the error, and no step_completed for it', () => {
    const first = started();
    const before: Run = claimed({ ...first, step_index: 1, history: [result(0, 'completed')] });
    const error = 'validation_error: the recipient is suppressed';
    const after: Run = {
      ...before,
      status: 'failed',
      error,
      attempt: 0,
      lease_until: null,
      history: [...before.history, result(1, 'failed', error)],
      updated_at: LATER,
      ended_at: LATER,
    };
    expect(runEvents(before, after)).toEqual([
      webhook(before, 'automation.failed', LATER, { status: 'failed', step_index: 1, step_key: 'welcome', step_type: 'send_email', error }),
    ]);
  });

  it('a cancelled run publishes nothing', () => {
    const before = started();
    const after: Run = {
      ...before,
      status: 'cancelled',
      error: 'cancelled by event user.deleted (ae_1)',
      ended_at: LATER,
      updated_at: LATER,
    };
    expect(runEvents(before, after)).toEqual([]);
    expect(runEvents(claimed(before), { ...after, step_state: 'claimed' })).toEqual([]);
  });

  it('an already ended run written again publishes nothing more', () => {
    const before = claimed(started());
    const ended: Run = { ...before, status: 'completed', history: [result(0, 'completed')], ended_at: LATER, updated_at: LATER };
    expect(runEvents(ended, { ...ended })).toEqual([]);
  });

  it('ids are deterministic: the same write twice gives the same ids; other steps or types give other ids', () => {
    const before = claimed(started());
    const step0: Run = { ...before, step_index: 1, step_state: 'pending', history: [result(0, 'completed')], updated_at: LATER };
    const step1: Run = { ...step0, status: 'completed', history: [...step0.history, result(1, 'completed')], ended_at: LATER };
    const startedIds = [runEvents(null, started())[0]!.id, runEvents(null, started())[0]!.id];
    expect(startedIds[0]).toBe(startedIds[1]);
    const a = runEvents(before, step0).map((e) => e.id);
    const b = runEvents(structuredClone(before), structuredClone(step0)).map((e) => e.id);
    expect(a).toEqual(b);
    const c = runEvents(claimed(step0), step1).map((e) => e.id);
    expect(c).toHaveLength(2);
    const all = [startedIds[0], ...a, ...c];
    expect(new Set(all).size).toBe(all.length);
    for (const id of all) expect(id).toMatch(EVT_ID);
  });

  it('another run (another event) gets other ids for the same step', () => {
    const one = started();
    const other = started('ae_01JD8Z6X4Q2T9V3N5M7K1H0G8G');
    expect(runEvents(null, other)[0]!.id).not.toBe(runEvents(null, one)[0]!.id);
  });
});
