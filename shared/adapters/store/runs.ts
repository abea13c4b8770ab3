/**
 * Automation runs (docs/automations.md, "Runs"): one item per run (`RUN#<run>`), listed per automation
 * through GSI1. Every transition is ONE conditional write on what the caller expects the run to be, so
 * concurrent attempts (SQS redelivery, a schedule firing twice, a crashed worker's retry, two events
 * resuming one wait) resolve in DynamoDB, never by read-then-write:
 *  - start: put if absent (the run id is derived from automation and event: a repeated start is `exists`);
 *  - claim: the step at `index` while running and pending, or claimed by an attempt whose lease ended;
 *  - complete: only the attempt's own claim of that step (same index, same attempt number);
 *  - wait: only the attempt's own claim, which becomes `waiting` (a delay, a wait for an event);
 *  - finish waiting: only while waiting at that step (the delay's firing, the wait's event or timeout);
 *  - cancel: only while running.
 *
 * While a run is running it carries two sparse index entries, removed by the write that ends it:
 *  - GSI3 `RUNS#<acc>#<subject>`: the user's running runs, read by POST /events (resume, cancel);
 *  - GSI2, the due index: when the reconciler should look at it if nothing moved it (a pending step
 *    never handed over, a dead attempt's lease, a delay whose firing was lost).
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { runSchema, type Run, type RunStatus, type StepResult } from '../../domain/automations/run';
import type { RecoveryBounds } from '../../domain/reliability/bounds';
import { DEFAULT_RECOVERY_BOUNDS } from '../../domain/reliability/bounds';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { dueAttributes, REMOVE_DUE, setDue } from './due-index';
import { keys } from './keys';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs } from './erasures';
import { addressesOfRun } from '../../domain/privacy/named-addresses';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { isConditionFailure, updateIfCondition, withoutNullFields, type Table } from './table';

export type StartRunOutcome = { kind: 'started' } | { kind: 'exists' };
export type ClaimStepOutcome = { kind: 'claimed'; run: Run } | { kind: 'not_claimable' };

/** What finishing a step leads to: the next step (pending), or the end of the run. */
export type StepOutcome = { next: number } | { end: 'completed' } | { end: 'failed'; error: string };

/** Attributes absent until set (a later write fills them with if_not_exists): null on read (runSchema's defaults). */
export const RUN_LATE_FIELDS = ['lease_until', 'step_started_at', 'wake_at', 'waiting_for', 'ended_at', 'error'] as const;

/** A run item (as read, or a stream image unmarshalled) as the Run it holds; StoredItemError when it holds none. */
export function runFromItem(item: Record<string, unknown>): Run {
  return decodeItem(runSchema, item, 'Run');
}

/** Most running runs of one user POST /events looks at (a user rarely has more than a handful). */
export const MAX_RUNS_PER_SUBJECT = 500;

/** The REMOVE clause part that takes a run out of its user's index of running runs (it ended). */
const REMOVE_SUBJECT = 'GSI3PK, GSI3SK';

type Update = { set: string[]; remove: string[]; values: Record<string, unknown>; names: Record<string, string> };

export class RunRepository {
  constructor(
    private readonly table: Table,
    private readonly bounds: Pick<RecoveryBounds, 'queuedRedriveAfterMs' | 'scheduledLateAfterMs'> = DEFAULT_RECOVERY_BOUNDS,
  ) {}

  async start(run: Run): Promise<StartRunOutcome> {
    const item: Record<string, unknown> = {
      ...keys.run(run.id),
      GSI1PK: keys.runsByAutomation(run.automation_id),
      GSI1SK: run.id,
      ...(run.subject ? { GSI3PK: keys.runsBySubject(run.account_id, run.subject), GSI3SK: run.id } : {}),
      ...dueAttributes('RUN', run.id, Date.parse(run.created_at) + this.bounds.queuedRedriveAfterMs),
      type: 'run',
      ...withoutNullFields(run, RUN_LATE_FIELDS),
      // Its references are written below, before it: an older release's runs lack this (./legacy-records.ts).
      [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
    };
    // The address references of whom the run names (its event's email and data, an email: subject; ./erasures.ts, docs/erasure.md).
    await writeAddressRefs(this.table, run.account_id, addressesOfRun(run), 'automation_run', keys.run(run.id));
    try {
      await this.table.client.send(
        new PutCommand({ TableName: this.table.name, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }),
      );
      return { kind: 'started' };
    } catch (error) {
      if (isConditionFailure(error)) return { kind: 'exists' };
      throw error;
    }
  }

  /** The run (strongly consistent), or null. */
  async get(runId: string): Promise<Run | null> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.run(runId), ConsistentRead: true }));
    return result.Item ? runFromItem(result.Item) : null;
  }

  /**
   * One page of an automation's runs, newest first (eventually consistent: GSI1); with `status`, only
   * the runs in it (filtered as read: a page may then hold fewer than `limit` while there is more).
   */
  list(automationId: string, page: PageRequest, status?: RunStatus): Promise<Page<Run>> {
    return queryGsi1NewestFirst(this.table, keys.runsByAutomation(automationId), page, runFromItem, status);
  }

  /**
   * The user's running runs (GSI3, eventually consistent: a run started a moment ago may be missing, and
   * one just ended may still be listed; every write on them is conditional anyway), oldest first.
   */
  async runningForSubject(accountId: string, subject: string): Promise<Run[]> {
    const runs: Run[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          IndexName: 'GSI3',
          KeyConditionExpression: 'GSI3PK = :pk',
          ExpressionAttributeValues: { ':pk': keys.runsBySubject(accountId, subject) },
          ExclusiveStartKey: start,
          Limit: Math.min(100, MAX_RUNS_PER_SUBJECT - runs.length),
        }),
      );
      for (const item of page.Items ?? []) {
        const run = runFromItem(item);
        if (run.status === 'running') runs.push(run);
      }
      start = page.LastEvaluatedKey;
    } while (start && runs.length < MAX_RUNS_PER_SUBJECT);
    return runs;
  }

  /**
   * Claims the step at `index` for one attempt until `nowMs + leaseMs`: while the run is running at that
   * step and the step is pending, or claimed by an attempt whose lease has ended (it died). Exactly one
   * of any number of concurrent claims wins; the others are `not_claimable`.
   */
  async claimStep(runId: string, index: number, nowMs: number, leaseMs: number, at: string): Promise<ClaimStepOutcome> {
    const due = setDue('RUN', runId, nowMs + leaseMs);
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: `SET step_state = :claimed, lease_until = :until, attempt = attempt + :one, updated_at = :at, step_started_at = if_not_exists(step_started_at, :at), ${due.set}`,
      ConditionExpression:
        '#status = :running AND step_index = :index AND (step_state = :pending OR (step_state = :claimed AND lease_until < :now))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':claimed': 'claimed',
        ':until': nowMs + leaseMs,
        ':one': 1,
        ':at': at,
        ':running': 'running',
        ':index': index,
        ':pending': 'pending',
        ':now': nowMs,
        ...due.values,
      },
    });
    return item ? { kind: 'claimed', run: runFromItem(item) } : { kind: 'not_claimable' };
  }

  /** The clauses that record a finished step and move on (the next step pending) or end the run. */
  private advance(runId: string, result: StepResult, outcome: StepOutcome): Update {
    const at = result.completed_at;
    const update: Update = {
      set: ['history = list_append(history, :result)', 'updated_at = :at', 'attempt = :zero'],
      remove: ['lease_until', 'step_started_at', 'wake_at', 'waiting_for'],
      values: { ':result': [result], ':at': at, ':zero': 0, ':running': 'running' },
      names: { '#status': 'status' },
    };
    if ('end' in outcome) {
      update.set.push('#status = :end', 'ended_at = :at');
      update.values[':end'] = outcome.end;
      if (outcome.end === 'failed') {
        update.set.push('#error = :error');
        update.values[':error'] = outcome.error;
        update.names['#error'] = 'error';
      }
      update.remove.push(REMOVE_DUE, REMOVE_SUBJECT);
    } else {
      const due = setDue('RUN', runId, Date.parse(at) + this.bounds.queuedRedriveAfterMs);
      update.set.push('step_index = :next', 'step_state = :pending', due.set);
      Object.assign(update.values, { ':next': outcome.next, ':pending': 'pending' }, due.values);
    }
    return update;
  }

  private async write(runId: string, update: Update, condition: string, values: Record<string, unknown>): Promise<Run | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: `SET ${update.set.join(', ')}${update.remove.length ? ` REMOVE ${update.remove.join(', ')}` : ''}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: { ...update.values, ...values },
    });
    return item ? runFromItem(item) : null;
  }

  /**
   * Records the claimed step's result and moves on (the next step pending, or the end), only if this
   * attempt still holds the claim (`attempt` is the number its claim returned). Null: it does not (another
   * attempt took over after the lease, or the run was cancelled); the result is then not recorded.
   */
  completeStep(runId: string, index: number, attempt: number, result: StepResult, outcome: StepOutcome): Promise<Run | null> {
    return this.write(
      runId,
      this.advance(runId, result, outcome),
      '#status = :running AND step_index = :index AND step_state = :claimed AND attempt = :attempt',
      {
        ':index': index,
        ':claimed': 'claimed',
        ':attempt': attempt,
      },
    );
  }

  /**
   * The claimed step waits (a delay, a wait for an event) until `wakeAtMs`, when its schedule (or the
   * reconciler, if the firing is lost) wakes it; `waitingFor` names the event that resumes it earlier.
   * Only by the attempt holding the claim; null otherwise.
   */
  async waitStep(
    runId: string,
    index: number,
    attempt: number,
    wakeAtMs: number,
    waitingFor: string | null,
    at: string,
  ): Promise<Run | null> {
    const due = setDue('RUN', runId, wakeAtMs + this.bounds.scheduledLateAfterMs);
    const update: Update = {
      set: ['step_state = :waiting', 'wake_at = :wake', 'updated_at = :at', due.set],
      remove: ['lease_until'],
      values: { ':waiting': 'waiting', ':wake': new Date(wakeAtMs).toISOString(), ':at': at, ':running': 'running', ...due.values },
      names: { '#status': 'status' },
    };
    if (waitingFor !== null) {
      update.set.push('waiting_for = :for');
      update.values[':for'] = waitingFor;
    }
    return this.write(runId, update, '#status = :running AND step_index = :index AND step_state = :claimed AND attempt = :attempt', {
      ':index': index,
      ':claimed': 'claimed',
      ':attempt': attempt,
    });
  }

  /**
   * Ends the wait of the step at `index` with its result and moves on: the delay's end or the wait's
   * timeout (any waiting step), or the awaited event (`event`: only while waiting for that event). Exactly
   * one of a firing, a duplicate firing, the reconciler's re-drive and any number of events wins; null
   * for the others.
   */
  finishWaiting(runId: string, index: number, result: StepResult, outcome: StepOutcome, event?: string): Promise<Run | null> {
    const values: Record<string, unknown> = { ':index': index, ':waiting': 'waiting' };
    let condition = '#status = :running AND step_index = :index AND step_state = :waiting';
    if (event !== undefined) {
      condition += ' AND waiting_for = :event';
      values[':event'] = event;
    }
    return this.write(runId, this.advance(runId, result, outcome), condition, values);
  }

  /** Cancels a running run (cancel_on_events, a paused or deleted automation); null when it was not running. */
  cancel(runId: string, at: string, reason: string): Promise<Run | null> {
    const update: Update = {
      set: ['#status = :cancelled', 'ended_at = :at', 'updated_at = :at', '#error = :reason'],
      remove: ['lease_until', REMOVE_DUE, REMOVE_SUBJECT],
      values: { ':cancelled': 'cancelled', ':at': at, ':reason': reason, ':running': 'running' },
      names: { '#status': 'status', '#error': 'error' },
    };
    return this.write(runId, update, '#status = :running', {});
  }

  /** Moves a running run's due time (the reconciler, after re-driving it); false when it is not running. */
  async postponeDue(runId: string, dueAtMs: number): Promise<boolean> {
    const due = setDue('RUN', runId, dueAtMs);
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: `SET ${due.set}`,
      ConditionExpression: '#status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ...due.values, ':running': 'running' },
      ReturnValues: 'NONE',
    });
    return item !== null;
  }

  /** Takes an ended run out of the due index (a write that left it there). */
  async clearDue(runId: string): Promise<void> {
    await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: `REMOVE ${REMOVE_DUE}`,
      ConditionExpression: '#status <> :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':running': 'running' },
      ReturnValues: 'NONE',
    });
  }
}
