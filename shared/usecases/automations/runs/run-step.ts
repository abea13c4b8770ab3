/**
 * The automation-steps worker's use case: one message `{run_id, step_index, wake?}` (docs/automations.md,
 * "Runs"). Exactly once per step, whatever arrives twice:
 *
 *   due step      claim it (one conditional write: pending, or a dead attempt's lease ended), do it,
 *                 then complete it as the attempt holding the claim. A duplicate message finds the claim
 *                 taken (or the step done) and does nothing.
 *     condition    evaluated on the run's event; true goes on, false ends the run (completed).
 *     send_email   through the send core (every sending rule) with an idempotency key derived from
 *                  (run, step): an attempt that dies after sending is followed by one that gets the same
 *                  email back. A refusal (4xx: suppressed, unverified domain, plan limit, missing
 *                  template...) fails the run with automation.failed; other errors retry the message.
 *     delay        a one-time schedule of (run, step) at the end of the delay, then `waiting`.
 *     wait         the same with the timeout, waiting for the event (POST /events resumes it).
 *   wake          (the schedule fired, or the reconciler re-drove a lost firing): only while the step is
 *                 still waiting; the delay ends, or the wait times out (on_timeout). A second firing
 *                 finds it moved on.
 *
 * Before each step the automation is read: a run whose automation was paused or deleted is cancelled
 * there (its later steps never run). A step retried past MAX_ATTEMPTS fails its run. Nothing here blocks
 * another run: each message is one run's step.
 */
import type { ConditionStep, DelayStep, SendEmailStep, Step, WaitForEventStep } from '#shared/domain/automations/automation';
import { currentStepResult, type Run } from '#shared/domain/automations/run';
import { flowAfter, flowAfterTimeout, flowOutcome } from '#shared/domain/automations/step-flow';
import type { AutomationStepMessage } from '#shared/domain/messages';
import { conditionStep, sendEmailStep, waitingStep, type StepEnd } from './step-actions';
import type { RunStepDeps, RunStepOutcome } from './run-step-deps';

export type { RunStepDeps, RunStepOutcome } from './run-step-deps';

/** How long a claim holds a step: below the queue's visibility timeout (60 s), above the worker's timeout (30 s). */
export const STEP_LEASE_MS = 45_000;
/** Attempts of one step before its run fails (each a claim after a dead or failed attempt). */
export const MAX_ATTEMPTS = 5;

/** A paused or deleted automation stops its runs at their next step, or when a wait of theirs ends. */
async function cancelIfStopped(deps: RunStepDeps, run: Run, step: Step, now: Date): Promise<RunStepOutcome | null> {
  const automation = await deps.automations.get(run.account_id, run.automation_id);
  if (automation && automation.status === 'active') return null;
  const reason = automation ? `the automation was paused before step ${step.key}` : `the automation was deleted before step ${step.key}`;
  return (await deps.runs.cancel(run.id, now.toISOString(), reason)) ? 'cancelled' : 'skipped';
}

async function wake(deps: RunStepDeps, message: AutomationStepMessage): Promise<RunStepOutcome> {
  const run = await deps.runs.get(message.run_id);
  if (run?.status !== 'running' || run.step_index !== message.step_index || run.step_state !== 'waiting') return 'skipped';
  // Trusted whenever it comes: the schedule fires at wake_at, the reconciler only once it is past due.
  const now = deps.clock.now();
  const step = run.steps[run.step_index]!;
  const stopped = await cancelIfStopped(deps, run, step, now);
  if (stopped) return stopped;
  const at = now.toISOString();
  const started = run.step_started_at ?? at;
  // A wait for an event times out (on_timeout); a delay ends.
  const timedOut = step.type === 'wait_for_event';
  const output = timedOut ? { event: step.event, timed_out: true } : { waited_until: run.wake_at };
  const flow = timedOut ? flowAfterTimeout(run.steps, run.step_index) : flowAfter(run.steps, run.step_index);
  const done = await deps.runs.finishWaiting(
    run.id,
    run.step_index,
    currentStepResult(run, 'completed', started, at, output, null),
    flowOutcome(flow),
  );
  return done ? 'woken' : 'skipped';
}

/** How the claimed step ends: `completeStep` as the attempt holding the claim, with the step's result. */
function stepEnd(deps: RunStepDeps, run: Run, startedAt: string): StepEnd {
  const finish: StepEnd['finish'] = async (status, output, error, outcome) => {
    const at = deps.clock.now().toISOString();
    const recorded = await deps.runs.completeStep(
      run.id,
      run.step_index,
      run.attempt,
      currentStepResult(run, status, startedAt, at, output, error),
      outcome,
    );
    if (!recorded) return 'lost_claim';
    return 'end' in outcome ? (outcome.end === 'failed' ? 'failed' : 'completed') : 'completed';
  };
  return { finish, fail: (output, error) => finish('failed', output, error, { end: 'failed', error }) };
}

export async function runStep(deps: RunStepDeps, message: AutomationStepMessage): Promise<RunStepOutcome> {
  if (message.wake) return wake(deps, message);
  const now = deps.clock.now();
  const claim = await deps.runs.claimStep(
    message.run_id,
    message.step_index,
    now.getTime(),
    deps.leaseMs ?? STEP_LEASE_MS,
    now.toISOString(),
  );
  if (claim.kind !== 'claimed') return 'skipped';
  const run = claim.run;
  const step = run.steps[run.step_index];
  const end = stepEnd(deps, run, run.step_started_at ?? now.toISOString());

  if (!step) return end.fail(null, `the run has no step ${run.step_index}`);
  if (run.attempt > MAX_ATTEMPTS) return end.fail(null, `step ${step.key} did not complete after ${MAX_ATTEMPTS} attempts`);
  // A send needs the account too: read with the automation, not after it (one round trip per step).
  const [stopped, account] = await Promise.all([
    cancelIfStopped(deps, run, step, now),
    step.type === 'send_email' ? deps.accounts.get(run.account_id) : null,
  ]);
  if (stopped) return stopped;

  switch (step.type) {
    case 'condition':
      return conditionStep(run, step as ConditionStep, end);
    case 'send_email':
      return sendEmailStep(deps, run, step as SendEmailStep, account, end);
    case 'delay':
    case 'wait_for_event':
      return waitingStep(deps, run, step as DelayStep | WaitForEventStep, now, end);
  }
}
