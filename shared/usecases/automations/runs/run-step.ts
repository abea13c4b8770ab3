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
import type { Automation, ConditionStep, DelayStep, SendEmailStep, Step, WaitForEventStep } from '#shared/domain/automations/automation';
import { parseDuration } from '#shared/domain/automations/duration';
import { evaluateCondition } from '#shared/domain/automations/evaluate-condition';
import { currentStepResult, type Run, type StepResult } from '#shared/domain/automations/run';
import { flowAfter, flowAfterTimeout, flowOutcome } from '#shared/domain/automations/step-flow';
import type { Account } from '#shared/domain/accounts/account';
import { AppError } from '#shared/domain/errors';
import type { Idempotency } from '#shared/domain/emails/idempotency';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { AutomationStepMessage } from '#shared/domain/messages';
import type { Clock } from '#shared/ports/clock';
import type { StepScheduler } from '#shared/ports/scheduling';
import type { RunRepository, StepOutcome } from '#shared/adapters/store/runs';
import type { Principal } from '../../access/principal';
import { stepEmailRequest } from './step-email';

/** How long a claim holds a step: below the queue's visibility timeout (60 s), above the worker's timeout (30 s). */
export const STEP_LEASE_MS = 45_000;
/** Attempts of one step before its run fails (each a claim after a dead or failed attempt). */
export const MAX_ATTEMPTS = 5;

export interface RunStepDeps {
  runs: Pick<RunRepository, 'get' | 'claimStep' | 'completeStep' | 'waitStep' | 'finishWaiting' | 'cancel'>;
  automations: { get(accountId: string, automationId: string): Promise<Automation | null> };
  accounts: { get(accountId: string): Promise<Account | null> };
  stepScheduler: StepScheduler;
  /** The send core (sendEmail) for this principal. */
  sendEmail(principal: Principal, request: ParsedSendRequest, idempotency: Idempotency): Promise<{ id: string; status: string }>;
  clock: Clock;
  /** The claim's lease (default STEP_LEASE_MS). */
  leaseMs?: number;
}

export type RunStepOutcome =
  | 'completed'
  | 'waiting'
  | 'woken'
  | 'failed'
  | 'cancelled'
  /** A duplicate, a stale message, a step another attempt holds, a run that ended: nothing done. */
  | 'skipped'
  /** The attempt lost its claim before recording the result (another took over, or the run was cancelled). */
  | 'lost_claim';

/**
 * Principal of a run's sends: the account, acting through the automation, within the reach the run kept
 * (its automation's maker's domains: a send from any other is refused, domain_not_allowed, as that key's
 * would be, and fails the step). Sending only; account-wide (a key limited to a tenant makes no automation).
 */
function automationPrincipal(account: Account, run: Pick<Run, 'automation_id' | 'allowed_domains'>): Principal {
  return {
    account,
    credential: { kind: 'automation', id: run.automation_id, scopes: ['emails:send'], tenant: null, allowed_domains: run.allowed_domains },
  };
}

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
  const startedAt = run.step_started_at ?? now.toISOString();
  const finish = async (
    status: StepResult['status'],
    output: Record<string, unknown> | null,
    error: string | null,
    outcome: StepOutcome,
  ): Promise<RunStepOutcome> => {
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
  /** The step failed: so does the run, with the step's error. */
  const fail = (output: Record<string, unknown> | null, error: string) => finish('failed', output, error, { end: 'failed', error });

  if (!step) return fail(null, `the run has no step ${run.step_index}`);
  if (run.attempt > MAX_ATTEMPTS) return fail(null, `step ${step.key} did not complete after ${MAX_ATTEMPTS} attempts`);
  // A send needs the account too: read with the automation, not after it (one round trip per step).
  const [stopped, account] = await Promise.all([
    cancelIfStopped(deps, run, step, now),
    step.type === 'send_email' ? deps.accounts.get(run.account_id) : null,
  ]);
  if (stopped) return stopped;

  switch (step.type) {
    case 'condition': {
      const { result: passed, trace } = evaluateCondition(step as ConditionStep, run.event);
      return finish(
        'completed',
        { result: passed, trace },
        null,
        passed ? flowOutcome(flowAfter(run.steps, run.step_index)) : { end: 'completed' },
      );
    }
    case 'send_email': {
      const built = stepEmailRequest(step as SendEmailStep, run.event, run.id);
      if (!built.ok) return fail({ missing: built.missing }, built.error);
      if (!account) return fail(null, 'the account no longer exists');
      try {
        const sent = await deps.sendEmail(automationPrincipal(account, run), built.request, built.idempotency);
        return finish(
          'completed',
          { email_id: sent.id, status: sent.status, to: built.request.to, missing: built.missing },
          null,
          flowOutcome(flowAfter(run.steps, run.step_index)),
        );
      } catch (error) {
        // A refusal is final for this run (another attempt would be refused the same way); anything
        // else (5xx, the network) is retried: the message comes back, and the claim after the lease.
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return fail(
          { status: error.status, code: error.code, ...(error.details ? { details: error.details } : {}) },
          `${error.code}: ${error.message}`,
        );
      }
    }
    case 'delay':
    case 'wait_for_event': {
      const waiting = step as DelayStep | WaitForEventStep;
      const parsed = parseDuration(waiting.type === 'delay' ? waiting.duration : waiting.timeout);
      if (!parsed.ok) return fail(null, parsed.message);
      const wakeAt = new Date(now.getTime() + parsed.ms);
      // The schedule first: a claim lost after it leaves a firing that finds the step moved on.
      await deps.stepScheduler.wakeAt(run.id, run.step_index, wakeAt);
      const parked = await deps.runs.waitStep(
        run.id,
        run.step_index,
        run.attempt,
        wakeAt.getTime(),
        waiting.type === 'wait_for_event' ? waiting.event : null,
        deps.clock.now().toISOString(),
      );
      return parked ? 'waiting' : 'lost_claim';
    }
  }
}
