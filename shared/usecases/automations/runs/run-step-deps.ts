/** What the automation-steps worker's use case (./run-step.ts) uses, and what it answers. */
import type { Automation } from '#shared/domain/automations/automation';
import type { Account } from '#shared/domain/accounts/account';
import type { Email } from '#shared/domain/emails/email';
import type { ParsedSendRequest } from '#shared/domain/emails/send-request';
import type { Clock } from '#shared/ports/clock';
import type { StepScheduler } from '#shared/ports/scheduling';
import type { RunRepository } from '#shared/adapters/store/runs';
import type { Principal } from '../../access/principal';

export interface RunStepDeps {
  runs: Pick<RunRepository, 'get' | 'claimStep' | 'completeStep' | 'waitStep' | 'finishWaiting' | 'cancel'>;
  automations: { get(accountId: string, automationId: string): Promise<Automation | null> };
  accounts: { get(accountId: string): Promise<Account | null> };
  stepScheduler: StepScheduler;
  /** The send core (sendEmail) for this principal, under the step's email id (throws EmailExists when it is there). */
  sendEmail(principal: Principal, request: ParsedSendRequest, emailId: string): Promise<{ id: string; status: string }>;
  /** A retried step's earlier send: its email, by id (strongly consistent). */
  emails: { get(emailId: string): Promise<{ email: Pick<Email, 'id' | 'status'> } | null> };
  /** A step attempted before 2026-11-28: its send's idempotency record (./step-email.ts, stepIdempotencyKey). */
  idempotency: { get(accountId: string, key: string, now: Date): Promise<{ body: unknown } | null> };
  clock: Clock;
  /** The claim's lease (default STEP_LEASE_MS, ./run-step.ts). */
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
