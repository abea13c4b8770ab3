/**
 * An automation run (docs/automations.md, "Runs"): one user's way through one automation's steps,
 * started by one event. The run keeps its own copy of the steps and the automation's version, so an edit
 * after the start changes nothing for it. Pure: the record and its states; shared/adapters/store/runs.ts makes
 * every transition a conditional write (exactly once per step).
 *
 *   status      running -> completed | failed | cancelled
 *   step_state  pending (the step at step_index is to be done) -> claimed (an attempt holds it until
 *               lease_until) -> the next step's pending, or the end; waiting (a delay or a wait for an
 *               event) -> pending when it is due or resumed
 */
import * as z from 'zod';
import { deterministicId } from '../ids';
import { modelSchema } from '../model-schema';
import { STEP_TYPES, stepSchema, type Step } from './automation';

export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const STEP_STATES = ['pending', 'claimed', 'waiting'] as const;
export type StepState = (typeof STEP_STATES)[number];

/** The event a run was started by (what `{{event.*}}` and conditions read). */
export interface RunEvent {
  id: string;
  name: string;
  user_id: string | null;
  email: string | null;
  data: Record<string, unknown>;
  /** When the event was accepted: part of the run's id, so a retried start finds the same run. */
  created_at: string;
}

/** One finished step, as GET .../runs/{run_id} shows it. */
export interface StepResult {
  index: number;
  key: string;
  type: Step['type'];
  status: 'completed' | 'failed' | 'skipped';
  started_at: string;
  completed_at: string;
  /** What the step produced (the email id of a send, the condition's result, ...). */
  output: Record<string, unknown> | null;
  error: string | null;
}

export interface Run {
  id: string;
  account_id: string;
  automation_id: string;
  automation_name: string;
  automation_version: number;
  steps: Step[];
  event: RunEvent;
  /** Whom the run is about (eventSubject: `user:<id>` or `email:<address>`), null when the event named nobody. */
  subject: string | null;
  status: RunStatus;
  step_index: number;
  step_state: StepState;
  /** Epoch ms until which a claimed step belongs to its attempt. */
  lease_until: number | null;
  /** Attempts of the current step (1 for the first claim). */
  attempt: number;
  /** When the current step was first claimed (null while it is pending for the first time). */
  step_started_at: string | null;
  /** A waiting step's due time: the end of a delay, or a wait's timeout (ISO; null unless waiting). */
  wake_at: string | null;
  /** The event a `wait_for_event` step is waiting for (null unless waiting for one). */
  waiting_for: string | null;
  history: StepResult[];
  error: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
  /** The automation's reach when the run started, kept with its steps: its sends are made only from these domains (null: any). */
  allowed_domains: string[] | null;
}

const runEventSchema = modelSchema<RunEvent>()(
  z.object({
    id: z.string(),
    name: z.string(),
    user_id: z.string().nullable(),
    email: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  }),
);

const stepResultSchema = modelSchema<StepResult>()(
  z.object({
    index: z.number(),
    key: z.string(),
    type: z.enum(STEP_TYPES),
    status: z.enum(['completed', 'failed', 'skipped']),
    started_at: z.string(),
    completed_at: z.string(),
    output: z.record(z.string(), z.unknown()).nullable(),
    error: z.string().nullable(),
  }),
);

/** An attribute absent until set (the store's RUN_LATE_FIELDS, filled with if_not_exists): null in the model. */
const late = <T extends z.ZodType>(schema: T) => schema.nullable().default(null);

/**
 * The stored run (shared/adapters/store/runs.ts decodes its items and the stream's images with it),
 * checked against the interface.
 */
export const runSchema = modelSchema<Run>()(
  z.object({
    id: z.string(),
    account_id: z.string(),
    automation_id: z.string(),
    automation_name: z.string(),
    automation_version: z.number(),
    steps: z.array(stepSchema),
    event: runEventSchema,
    subject: z.string().nullable(),
    status: z.enum(RUN_STATUSES),
    step_index: z.number(),
    step_state: z.enum(STEP_STATES),
    lease_until: late(z.number()),
    attempt: z.number(),
    step_started_at: late(z.string()),
    wake_at: late(z.string()),
    waiting_for: late(z.string()),
    history: z.array(stepResultSchema),
    error: late(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    ended_at: late(z.string()),
    // Runs started before reach was recorded have none: any domain, as then.
    allowed_domains: late(z.array(z.string())),
  }),
);

/** The result of the step the run is at (`step_index`), as its history records it. */
export function currentStepResult(
  run: Pick<Run, 'steps' | 'step_index'>,
  status: StepResult['status'],
  startedAt: string,
  completedAt: string,
  output: Record<string, unknown> | null,
  error: string | null,
): StepResult {
  const step = run.steps[run.step_index];
  // A record whose step_index names no step (this engine never writes one) still gets a readable result.
  const named = step ?? { key: String(run.step_index), type: 'unknown' as Step['type'] };
  return {
    index: run.step_index,
    key: named.key,
    type: named.type,
    status,
    started_at: startedAt,
    completed_at: completedAt,
    output,
    error,
  };
}

/** The run of an automation started by an event: the same pair always gets the same id (one run). */
export function runIdFor(automationId: string, eventId: string, eventAt: number): string {
  return deterministicId('run', eventAt, `${automationId}\u0000${eventId}`);
}

/** A new run at its first step. */
export function newRun(input: {
  automation: { id: string; account_id: string; name: string; version: number; steps: Step[]; allowed_domains: string[] | null };
  event: RunEvent;
  subject: string | null;
  now: Date;
}): Run {
  const at = input.now.toISOString();
  return {
    id: runIdFor(input.automation.id, input.event.id, Date.parse(input.event.created_at)),
    account_id: input.automation.account_id,
    automation_id: input.automation.id,
    automation_name: input.automation.name,
    automation_version: input.automation.version,
    steps: input.automation.steps,
    event: input.event,
    subject: input.subject,
    status: 'running',
    step_index: 0,
    step_state: 'pending',
    lease_until: null,
    attempt: 0,
    step_started_at: null,
    wake_at: null,
    waiting_for: null,
    history: [],
    error: null,
    created_at: at,
    updated_at: at,
    ended_at: null,
    allowed_domains: input.automation.allowed_domains,
  };
}

/**
 * A write that took a run from `before` (null: a new run, or a write whose old image is unknown) to
 * `after` left the step at after's step_index pending, where it was not pending before: that step is to
 * be handed to the automation-steps queue.
 */
export function leftStepPending(before: Run | null, after: Run): boolean {
  if (after.status !== 'running' || after.step_state !== 'pending') return false;
  return before === null || before.step_state !== 'pending' || before.step_index !== after.step_index || before.status !== 'running';
}
