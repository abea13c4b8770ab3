/**
 * What each type of step does once its attempt holds the claim (./run-step.ts): a condition is evaluated,
 * a send goes through the send core, a delay or a wait parks the step until its schedule fires. Each ends
 * through the claimed step's `StepEnd`, as the attempt holding the claim.
 */
import type { ConditionStep, DelayStep, SendEmailStep, WaitForEventStep } from '#shared/domain/automations/automation';
import { parseDuration } from '#shared/domain/automations/duration';
import { evaluateCondition } from '#shared/domain/automations/evaluate-condition';
import type { Run, StepResult } from '#shared/domain/automations/run';
import { flowAfter, flowOutcome } from '#shared/domain/automations/step-flow';
import type { Account } from '#shared/domain/accounts/account';
import { AppError } from '#shared/domain/errors';
import type { StepOutcome } from '#shared/adapters/store/runs';
import type { Principal } from '../../access/principal';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { RunStepDeps, RunStepOutcome } from './run-step-deps';
import { EmailExists } from '../../send/idempotency';
import { stepEmailId, stepEmailRequest, stepIdempotencyKey } from './step-email';

/** How the claimed step ends: its result recorded as the attempt holding the claim. */
export interface StepEnd {
  finish(
    status: StepResult['status'],
    output: Record<string, unknown> | null,
    error: string | null,
    outcome: StepOutcome,
  ): Promise<RunStepOutcome>;
  /** The step failed: so does the run, with the step's error. */
  fail(output: Record<string, unknown> | null, error: string): Promise<RunStepOutcome>;
}

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

/** Evaluated on the run's event: true goes on, false ends the run (completed). */
export function conditionStep(run: Run, step: ConditionStep, end: StepEnd): Promise<RunStepOutcome> {
  const { result: passed, trace } = evaluateCondition(step, run.event);
  return end.finish(
    'completed',
    { result: passed, trace },
    null,
    passed ? flowOutcome(flowAfter(run.steps, run.step_index)) : { end: 'completed' },
  );
}

type SentEmail = { id: string; status: string };
type SendDeps = Pick<RunStepDeps, 'sendEmail' | 'emails' | 'idempotency' | 'clock'>;

/** A stored email as its send answered: `scheduled`, else `sent`. */
const answerOf = (email: { id: string; status: string }): SentEmail => ({
  id: email.id,
  status: email.status === 'scheduled' ? 'scheduled' : 'sent',
});

/**
 * What an earlier attempt of the step sent, for a retried one: the email of the step's id, or (a step first
 * attempted before 2026-11-28) its send's idempotency record. Read before the send core, so a retry answers
 * as the first attempt did, whatever changed since (a recipient suppressed by the first email's bounce).
 */
async function earlierSend(deps: SendDeps, run: Run, step: SendEmailStep, emailId: string): Promise<SentEmail | null> {
  const [stored, record] = await Promise.all([
    deps.emails.get(emailId),
    deps.idempotency.get(run.account_id, stepIdempotencyKey(run.id, step.key), deps.clock.now()),
  ]);
  if (stored) return answerOf(stored.email);
  return record ? (record.body as SentEmail) : null;
}

/** The send under the step's id; refused because another attempt stored it meanwhile (EmailExists): that email. */
async function sendUnder(deps: SendDeps, principal: Principal, request: ParsedSendRequest, emailId: string): Promise<SentEmail> {
  try {
    return await deps.sendEmail(principal, request, emailId);
  } catch (error) {
    if (!(error instanceof EmailExists)) throw error;
    const stored = await deps.emails.get(emailId);
    if (!stored) throw error; // expired or erased since: retried
    return answerOf(stored.email);
  }
}

/**
 * Through the send core under the step's email id (./step-email.ts): a retried attempt first looks for what an
 * earlier one sent; two attempts at once get one email (the other's put is refused: EmailExists). A refusal
 * (4xx) fails the run, other errors retry the message.
 */
export async function sendEmailStep(
  deps: SendDeps,
  run: Run,
  step: SendEmailStep,
  account: Account | null,
  end: StepEnd,
): Promise<RunStepOutcome> {
  const built = stepEmailRequest(step, run.event);
  if (!built.ok) return end.fail({ missing: built.missing }, built.error);
  if (!account) return end.fail(null, 'the account no longer exists');
  const emailId = stepEmailId(run.id, step.key, run.step_started_at ?? deps.clock.now().toISOString());
  try {
    const sent =
      (run.attempt > 1 ? await earlierSend(deps, run, step, emailId) : null) ??
      (await sendUnder(deps, automationPrincipal(account, run), built.request, emailId));
    return end.finish(
      'completed',
      { email_id: sent.id, status: sent.status, to: built.request.to, missing: built.missing },
      null,
      flowOutcome(flowAfter(run.steps, run.step_index)),
    );
  } catch (error) {
    // A refusal is final for this run (another attempt would be refused the same way); anything
    // else (5xx, the network) is retried: the message comes back, and the claim after the lease.
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    return end.fail(
      { status: error.status, code: error.code, ...(error.details ? { details: error.details } : {}) },
      `${error.code}: ${error.message}`,
    );
  }
}

/** A delay, or a wait with its timeout: a one-time schedule of (run, step) at its end, then `waiting`. */
export async function waitingStep(
  deps: Pick<RunStepDeps, 'runs' | 'stepScheduler' | 'clock'>,
  run: Run,
  waiting: DelayStep | WaitForEventStep,
  now: Date,
  end: StepEnd,
): Promise<RunStepOutcome> {
  const parsed = parseDuration(waiting.type === 'delay' ? waiting.duration : waiting.timeout);
  if (!parsed.ok) return end.fail(null, parsed.message);
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
