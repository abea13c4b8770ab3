/**
 * Firing of due one-time schedules.
 *
 * One timer is armed for the earliest due time (never a busy loop); when it rings every due schedule
 * is fired and the timer re-armed. A fire sends Target.Input (default "{}") to the SQS target. It is
 * at-least-once: the schedule is marked completed (or deleted, with ActionAfterCompletion DELETE)
 * only after SendMessage succeeded. Records are immutable, so after every await the engine checks
 * that the record it is firing is still the stored one; a schedule deleted or updated in the meantime
 * is not sent (the updated record fires at its own time).
 *
 * Failed sends are retried with exponential backoff (1 s, 2 s, 4 s ... capped at 60 s) within the
 * target's RetryPolicy (MaximumRetryAttempts, MaximumEventAgeInSeconds; AWS defaults 185 / 86400 s).
 * When retries are exhausted the input goes to the DeadLetterConfig queue if there is one, and the
 * schedule is completed. Retry counters live in memory: after a restart a pending schedule starts over.
 *
 * Across a kill (SIGKILL at any moment): a schedule whose create was answered is in the journal, so it
 * fires after the restart if it had not (an overdue one at once, from start()). Its completion is
 * journaled after the send without delaying anything else; a kill between the send and that write
 * makes it fire once more on the next start. So at-least-once, never zero times: each kill can add at
 * most one extra firing of the schedules whose sends it caught unrecorded.
 */
import type { MessageAttributeValue } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import type { SendOutcome, SqsTargetSender } from './sqs-target';
import type { SchedulerStore } from './store';
import { DEFAULT_RETRY_POLICY, type ScheduleRecord } from './types';

/** setTimeout's limit is 2^31-1 ms; later schedules get an early wake-up that re-arms. */
const MAX_TIMER_MS = 2_000_000_000;
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 60_000;

interface RetryState {
  /** Failed attempts so far. */
  failures: number;
  firstAttemptAt: number;
  nextAt: number;
}

export interface FiringDeps {
  store: SchedulerStore;
  sender: SqsTargetSender;
  log: (msg: string) => void;
  now?: () => number;
}

export class FiringEngine {
  private readonly store: SchedulerStore;
  private readonly sender: SqsTargetSender;
  private readonly log: (msg: string) => void;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly inflight = new Map<ScheduleRecord, Promise<void>>();
  private readonly retries = new Map<ScheduleRecord, RetryState>();
  private stopped = false;

  constructor(deps: FiringDeps) {
    this.store = deps.store;
    this.sender = deps.sender;
    this.log = deps.log;
    this.now = deps.now ?? Date.now;
  }

  /** Arms the timer for everything stored (call once after loading). Overdue schedules fire at once. */
  start(): void {
    this.tick();
  }

  /** Tell the engine about a created or updated schedule so the timer covers it. */
  notify(record: ScheduleRecord): void {
    const at = this.dueAt(record);
    if (at !== undefined) this.arm(at);
  }

  /** Stops firing and waits for sends already under way to settle (their outcome is recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inflight.values()]);
  }

  private dueAt(record: ScheduleRecord): number | undefined {
    if (record.fired || record.State !== 'ENABLED' || this.inflight.has(record)) return undefined;
    return this.retries.get(record)?.nextAt ?? record.fireAt;
  }

  private isCurrent(record: ScheduleRecord): boolean {
    return this.store.getSchedule(record.GroupName, record.Name) === record;
  }

  private arm(at: number): void {
    if (this.stopped || at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), Math.min(Math.max(0, at - this.now()), MAX_TIMER_MS));
  }

  private tick(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped) return;
    for (const record of this.retries.keys()) if (!this.isCurrent(record)) this.retries.delete(record);
    const now = this.now();
    let next = Infinity;
    for (const record of [...this.store.allSchedules()]) {
      const at = this.dueAt(record);
      if (at === undefined) continue;
      if (at <= now) this.launch(record);
      else if (at < next) next = at;
    }
    if (next !== Infinity) this.arm(next);
  }

  private launch(record: ScheduleRecord): void {
    const run = this.fire(record)
      .catch((err: unknown) => this.log(`scheduler: firing ${record.Arn} failed unexpectedly: ${describe(err)}`))
      .finally(() => {
        this.inflight.delete(record);
        if (this.isCurrent(record)) this.notify(record);
      });
    this.inflight.set(record, run);
  }

  private async fire(record: ScheduleRecord): Promise<void> {
    const startedAt = this.now();
    const body = record.Target.Input ?? '{}';
    const groupId = record.Target.SqsParameters?.MessageGroupId;
    let outcome: SendOutcome;
    try {
      outcome = await this.sender.send(
        record.Target.Arn,
        { body, ...(groupId !== undefined ? { messageGroupId: groupId } : {}) },
        () => !this.stopped && this.isCurrent(record),
        record.Target.RoleArn,
      );
    } catch (err) {
      if (this.isCurrent(record)) await this.failed(record, err, startedAt);
      return;
    }
    if (outcome === 'aborted') return;
    this.log(`scheduler: fired ${record.Arn} -> ${record.Target.Arn}`);
    this.complete(record);
  }

  private async failed(record: ScheduleRecord, err: unknown, startedAt: number): Promise<void> {
    const policy = { ...DEFAULT_RETRY_POLICY, ...record.Target.RetryPolicy };
    const prev = this.retries.get(record);
    const failures = (prev?.failures ?? 0) + 1;
    const firstAttemptAt = prev?.firstAttemptAt ?? startedAt;
    const nextAt = this.now() + Math.min(RETRY_BASE_MS * 2 ** (failures - 1), RETRY_MAX_MS);
    const retriesDone = failures - 1;
    if (retriesDone < policy.MaximumRetryAttempts && nextAt <= firstAttemptAt + policy.MaximumEventAgeInSeconds * 1000) {
      this.retries.set(record, { failures, firstAttemptAt, nextAt });
      this.log(
        `scheduler: sending ${record.Arn} to ${record.Target.Arn} failed (${describe(err)}); retry ${failures} in ${nextAt - this.now()} ms`,
      );
      return;
    }
    this.retries.delete(record);
    this.log(`scheduler: giving up on ${record.Arn} after ${failures} attempt(s): ${describe(err)}`);
    const dlq = record.Target.DeadLetterConfig?.Arn;
    if (dlq) {
      try {
        const outcome = await this.sender.send(
          dlq,
          { body: record.Target.Input ?? '{}', attributes: deadLetterAttributes(record, err, retriesDone) },
          () => !this.stopped && this.isCurrent(record),
        );
        if (outcome === 'aborted') return;
      } catch (dlqErr) {
        this.log(`scheduler: dead-letter send of ${record.Arn} to ${dlq} failed: ${describe(dlqErr)}`);
      }
    }
    this.complete(record);
  }

  /** The one invocation is over: delete the schedule (DELETE) or remember it completed. */
  private complete(record: ScheduleRecord): void {
    this.retries.delete(record);
    if (!this.isCurrent(record)) return;
    if (record.ActionAfterCompletion === 'DELETE') this.store.deleteSchedule(record.GroupName, record.Name);
    else this.store.putSchedule({ ...record, fired: true });
    this.store.persist().catch((err: unknown) => this.log(`scheduler: persisting state failed: ${describe(err)}`));
  }
}

function deadLetterAttributes(record: ScheduleRecord, err: unknown, retries: number): Record<string, MessageAttributeValue> {
  const str = (v: string): MessageAttributeValue => ({ DataType: 'String', StringValue: v });
  const name = err instanceof Error ? err.name : 'Error';
  return {
    ERROR_CODE: str(name),
    ERROR_MESSAGE: str(describe(err).slice(0, 1000) || name),
    EXECUTION_ID: str(randomUUID()),
    RETRY_ATTEMPTS: { DataType: 'Number', StringValue: String(retries) },
    SCHEDULE_ARN: str(record.Arn),
    TARGET_ARN: str(record.Target.Arn),
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
