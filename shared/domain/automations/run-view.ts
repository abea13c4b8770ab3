/**
 * The API's view of automation runs (docs/automations.md, "Runs API"): GET /automations/{id}/runs lists
 * summaries, GET /automations/{id}/runs/{run_id} shows one run in detail. Pure.
 *
 * What a run record holds only for the engine stays out: the account, the lease and attempt count, the
 * subject, the keys and index entries, and the copy of the steps the run was started with (GET
 * /automations/{id} shows the definition; each step here carries its key and type). The step state
 * `claimed` is shown as `running`: an attempt is doing the step.
 */
import * as z from 'zod';
import type { Step } from './automation';
import { RUN_STATUSES, type Run, type RunStatus, type StepState } from './run';

/** `?limit&cursor&status` of GET /automations/{id}/runs (newest first). */
export const listRunsQuerySchema = z.object({
  limit: z.coerce.number().int('limit must be an integer').min(1, 'limit must be 1-100').max(100, 'limit must be 1-100').default(25),
  cursor: z.string().max(2048).optional(),
  status: z
    .enum(RUN_STATUSES, { error: `status must be one of ${RUN_STATUSES.join(', ')}` })
    .optional()
    .describe('only runs in this status (a page may then hold fewer than limit, even none, while has_more is true)'),
});
export type ListRunsQuery = z.output<typeof listRunsQuerySchema>;

/** A step that is not finished, as the API names its state. */
export type CurrentStepState = 'pending' | 'running' | 'waiting';

const STATE_NAMES: Record<StepState, CurrentStepState> = { pending: 'pending', claimed: 'running', waiting: 'waiting' };

export interface CurrentStepView {
  index: number;
  key: string;
  type: Step['type'];
  state: CurrentStepState;
  /** A waiting step's due time (a delay's end, a wait's timeout); null otherwise. */
  wake_at: string | null;
  /** The event a `wait_for_event` step waits for; null otherwise. */
  waiting_for: string | null;
}

export interface RunSummary {
  object: 'automation_run';
  id: string;
  automation_id: string;
  automation_version: number;
  status: RunStatus;
  event: { id: string; name: string; user_id: string | null; email: string | null; created_at: string };
  /** The step the run is at; null once the run has ended. */
  current_step: CurrentStepView | null;
  /** Steps finished (completed, skipped or failed): the length of the run's history. */
  steps_completed: number;
  error: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

/** One step of a run's detail: a finished one (from the history), or the current one (last, while running). */
export interface RunStepView {
  index: number;
  key: string;
  type: Step['type'];
  status: 'completed' | 'failed' | 'skipped' | CurrentStepState;
  /** When the step was first claimed; null for a current step not claimed yet. */
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  output: Record<string, unknown> | null;
  error: string | null;
  /** Only on the current step. */
  wake_at?: string | null;
  /** Only on the current step. */
  waiting_for?: string | null;
}

export interface RunDetail extends Omit<RunSummary, 'event'> {
  event: RunSummary['event'] & { data: Record<string, unknown> };
  steps: RunStepView[];
}

function currentStep(run: Run): CurrentStepView | null {
  if (run.status !== 'running') return null;
  const step = run.steps[run.step_index];
  // A running run is always at one of its steps; a record saying otherwise shows no current step.
  if (!step) return null;
  return {
    index: run.step_index,
    key: step.key,
    type: step.type,
    state: STATE_NAMES[run.step_state],
    wake_at: run.wake_at,
    waiting_for: run.waiting_for,
  };
}

export function toRunSummary(run: Run): RunSummary {
  return {
    object: 'automation_run',
    id: run.id,
    automation_id: run.automation_id,
    automation_version: run.automation_version,
    status: run.status,
    event: { id: run.event.id, name: run.event.name, user_id: run.event.user_id, email: run.event.email, created_at: run.event.created_at },
    current_step: currentStep(run),
    steps_completed: run.history.length,
    error: run.error,
    created_at: run.created_at,
    updated_at: run.updated_at,
    ended_at: run.ended_at,
  };
}

/** Milliseconds between two ISO times; null when either is unreadable (never negative). */
function durationMs(startedAt: string, completedAt: string): number | null {
  const started = Date.parse(startedAt);
  const completed = Date.parse(completedAt);
  if (Number.isNaN(started) || Number.isNaN(completed)) return null;
  return Math.max(0, completed - started);
}

export function toRunDetail(run: Run): RunDetail {
  const summary = toRunSummary(run);
  const steps: RunStepView[] = run.history.map((result) => ({
    index: result.index,
    key: result.key,
    type: result.type,
    status: result.status,
    started_at: result.started_at,
    completed_at: result.completed_at,
    duration_ms: durationMs(result.started_at, result.completed_at),
    output: result.output,
    error: result.error,
  }));
  const current = summary.current_step;
  if (current) {
    steps.push({
      index: current.index,
      key: current.key,
      type: current.type,
      status: current.state,
      started_at: run.step_started_at,
      completed_at: null,
      duration_ms: null,
      output: null,
      error: null,
      wake_at: current.wake_at,
      waiting_for: current.waiting_for,
    });
  }
  return { ...summary, event: { ...summary.event, data: run.event.data }, steps };
}
