/**
 * An in-memory RunRepository (shared/adapters/store/runs.ts) with exactly the conditions each write documents, so
 * the run use cases can be driven through realistic transitions without DynamoDB:
 *  - start: put if absent;
 *  - claimStep: running AND step_index = i AND (pending OR (claimed AND lease_until < now));
 *  - completeStep / waitStep: running AND step_index = i AND claimed AND attempt = the claim's attempt;
 *  - finishWaiting: running AND step_index = i AND waiting (AND waiting_for = event, when given);
 *  - cancel: running;
 *  - runningForSubject: the account's running runs of that subject, oldest first.
 * Every read and write hands out copies (as DynamoDB would). Each successful write is also recorded as a
 * stream record as the automation outbox's Lambda gets it (old and new image marshalled from the items).
 */
import type { Step } from '#shared/domain/automations/automation';
import { newRun, type Run, type RunEvent, type StepResult } from '#shared/domain/automations/run';
import {
  RUN_LATE_FIELDS,
  type ClaimStepOutcome,
  type RunRepository,
  type StartRunOutcome,
  type StepOutcome,
} from '#shared/adapters/store/runs';
import { withoutNullFields } from '#shared/adapters/store/table';
import type { DynamoDBRecord } from 'aws-lambda';
import { inserted, modified } from '../../support/stream-records';

export type RunsPort = Pick<
  RunRepository,
  'start' | 'get' | 'claimStep' | 'completeStep' | 'waitStep' | 'finishWaiting' | 'cancel' | 'runningForSubject'
>;

/** The run as the table's item (and stream image) holds it: keys, `type`, null attributes absent (runFromItem reads them back as null). */
export function runItem(run: Run): Record<string, unknown> {
  return { PK: `RUN#${run.id}`, SK: 'RUN', type: 'run', ...withoutNullFields(structuredClone(run), RUN_LATE_FIELDS) };
}

/**
 * A new run of `steps` (newRun), started at `at` by an event of that time: by default automation
 * auto_...8F "Welcome series" v1 of acc_1, event ae_...8F `user.created` of user 42 (ada@example.com),
 * no data; each part overridable.
 */
export function testRun(
  steps: Step[],
  options: {
    at: number | string;
    now?: number | string;
    automation?: Partial<{ id: string; account_id: string; name: string; version: number; allowed_domains: string[] | null }>;
    event?: Partial<RunEvent>;
    subject?: string | null;
  },
): Run {
  const at = new Date(options.at).toISOString();
  return newRun({
    automation: {
      id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      account_id: 'acc_1',
      name: 'Welcome series',
      version: 1,
      allowed_domains: null,
      ...options.automation,
      steps,
    },
    event: {
      id: 'ae_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
      name: 'user.created',
      user_id: '42',
      email: 'ada@example.com',
      data: {},
      created_at: at,
      ...options.event,
    },
    subject: options.subject === undefined ? 'user:42' : options.subject,
    now: new Date(options.now ?? options.at),
  });
}

export class FakeRuns implements RunsPort {
  readonly items = new Map<string, Run>();
  /** Every successful write, in order, as the table's stream would carry it. */
  readonly stream: DynamoDBRecord[] = [];
  /** Every successful claim: which attempt took which step. */
  readonly claims: { run_id: string; index: number; attempt: number }[] = [];
  /** Every call of start (whatever its outcome). */
  readonly starts: string[] = [];

  private record(before: Run | null, after: Run): void {
    this.stream.push(before === null ? inserted(runItem(after)) : modified(runItem(before), runItem(after)));
  }

  /** Applies `change` to a copy of the run when `condition` holds; the new run (a copy), or null. */
  private update(runId: string, condition: (run: Run) => boolean, change: (run: Run) => void): Run | null {
    const stored = this.items.get(runId);
    if (!stored || !condition(stored)) return null;
    const next = structuredClone(stored);
    change(next);
    this.items.set(runId, next);
    this.record(stored, next);
    return structuredClone(next);
  }

  /** The clauses of RunRepository.advance: the result appended, then the next step pending or the end. */
  private advance(run: Run, result: StepResult, outcome: StepOutcome): void {
    const at = result.completed_at;
    run.history.push(structuredClone(result));
    run.updated_at = at;
    run.attempt = 0;
    run.lease_until = null;
    run.step_started_at = null;
    run.wake_at = null;
    run.waiting_for = null;
    if ('end' in outcome) {
      run.status = outcome.end;
      run.ended_at = at;
      if (outcome.end === 'failed') run.error = outcome.error;
    } else {
      run.step_index = outcome.next;
      run.step_state = 'pending';
    }
  }

  async start(run: Run): Promise<StartRunOutcome> {
    this.starts.push(run.id);
    if (this.items.has(run.id)) return { kind: 'exists' };
    this.items.set(run.id, structuredClone(run));
    this.record(null, run);
    return { kind: 'started' };
  }

  async get(runId: string): Promise<Run | null> {
    const run = this.items.get(runId);
    return run ? structuredClone(run) : null;
  }

  async runningForSubject(accountId: string, subject: string): Promise<Run[]> {
    return [...this.items.values()]
      .filter((run) => run.account_id === accountId && run.subject === subject && run.status === 'running')
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((run) => structuredClone(run));
  }

  async claimStep(runId: string, index: number, nowMs: number, leaseMs: number, at: string): Promise<ClaimStepOutcome> {
    const claimed = this.update(
      runId,
      (run) =>
        run.status === 'running' &&
        run.step_index === index &&
        (run.step_state === 'pending' || (run.step_state === 'claimed' && run.lease_until !== null && run.lease_until < nowMs)),
      (run) => {
        run.step_state = 'claimed';
        run.lease_until = nowMs + leaseMs;
        run.attempt += 1;
        run.updated_at = at;
        run.step_started_at = run.step_started_at ?? at;
      },
    );
    if (!claimed) return { kind: 'not_claimable' };
    this.claims.push({ run_id: runId, index, attempt: claimed.attempt });
    return { kind: 'claimed', run: claimed };
  }

  private heldBy(index: number, attempt: number) {
    return (run: Run) => run.status === 'running' && run.step_index === index && run.step_state === 'claimed' && run.attempt === attempt;
  }

  async completeStep(runId: string, index: number, attempt: number, result: StepResult, outcome: StepOutcome): Promise<Run | null> {
    return this.update(runId, this.heldBy(index, attempt), (run) => this.advance(run, result, outcome));
  }

  async waitStep(
    runId: string,
    index: number,
    attempt: number,
    wakeAtMs: number,
    waitingFor: string | null,
    at: string,
  ): Promise<Run | null> {
    return this.update(runId, this.heldBy(index, attempt), (run) => {
      run.step_state = 'waiting';
      run.wake_at = new Date(wakeAtMs).toISOString();
      run.updated_at = at;
      run.lease_until = null;
      if (waitingFor !== null) run.waiting_for = waitingFor;
    });
  }

  async finishWaiting(runId: string, index: number, result: StepResult, outcome: StepOutcome, event?: string): Promise<Run | null> {
    return this.update(
      runId,
      (run) =>
        run.status === 'running' &&
        run.step_index === index &&
        run.step_state === 'waiting' &&
        (event === undefined || run.waiting_for === event),
      (run) => this.advance(run, result, outcome),
    );
  }

  async cancel(runId: string, at: string, reason: string): Promise<Run | null> {
    return this.update(
      runId,
      (run) => run.status === 'running',
      (run) => {
        run.status = 'cancelled';
        run.ended_at = at;
        run.updated_at = at;
        run.error = reason;
        run.lease_until = null;
      },
    );
  }

  /** The stored run (a copy); throws when absent, so a test reads it without null checks. */
  run(runId: string): Run {
    const run = this.items.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    return structuredClone(run);
  }
}
