/**
 * Automation runs (docs/automations.md, "Runs"): one item per run (`RUN#<run>`), listed per automation
 * through GSI1. Every transition is ONE conditional write on what the caller expects the run to be, so
 * concurrent attempts (SQS redelivery, a schedule firing twice, a crashed worker's retry) resolve in
 * DynamoDB, never by read-then-write:
 *  - start: put if absent (the run id is derived from automation and event: a repeated start is `exists`);
 *  - claim: the step at `index` while running and pending, or claimed by an attempt whose lease ended;
 *  - complete: only the attempt's own claim of that step (same index, same attempt number);
 *  - cancel: only while running.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Run, StepResult } from '../domain/automations/run';
import type { Page } from './cursor';
import { keys } from './keys';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { isConditionFailure, updateIfCondition, withoutKeys, type Table } from './table';

export type StartRunOutcome = { kind: 'started' } | { kind: 'exists' };
export type ClaimStepOutcome = { kind: 'claimed'; run: Run } | { kind: 'not_claimable' };

/** What completing a step leads to: the next step (pending), or the end of the run. */
export type StepOutcome = { next: number } | { end: 'completed' } | { end: 'failed'; error: string };

function toRun(item: Record<string, any>): Run {
  const { type: _type, ...rest } = withoutKeys(item);
  return { ...(rest as Run), lease_until: typeof rest.lease_until === 'number' ? rest.lease_until : null };
}

export class RunRepository {
  constructor(private readonly table: Table) {}

  async start(run: Run): Promise<StartRunOutcome> {
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: { ...keys.run(run.id), GSI1PK: keys.runsByAutomation(run.automation_id), GSI1SK: run.id, type: 'run', ...run },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
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
    return result.Item ? toRun(result.Item) : null;
  }

  /** One page of an automation's runs, newest first (eventually consistent: GSI1). */
  list(automationId: string, page: PageRequest): Promise<Page<Run>> {
    return queryGsi1NewestFirst(this.table, keys.runsByAutomation(automationId), page, toRun);
  }

  /**
   * Claims the step at `index` for one attempt until `nowMs + leaseMs`: while the run is running at that
   * step and the step is pending, or claimed by an attempt whose lease has ended (it died). Exactly one
   * of any number of concurrent claims wins; the others are `not_claimable`.
   */
  async claimStep(runId: string, index: number, nowMs: number, leaseMs: number, at: string): Promise<ClaimStepOutcome> {
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: 'SET step_state = :claimed, lease_until = :until, attempt = attempt + :one, updated_at = :at',
      ConditionExpression: '#status = :running AND step_index = :index AND (step_state = :pending OR (step_state = :claimed AND lease_until < :now))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':claimed': 'claimed', ':until': nowMs + leaseMs, ':one': 1, ':at': at, ':running': 'running', ':index': index, ':pending': 'pending', ':now': nowMs },
    });
    return item ? { kind: 'claimed', run: toRun(item) } : { kind: 'not_claimable' };
  }

  /**
   * Records the claimed step's result and moves on (the next step pending, or the end), only if this
   * attempt still holds the claim (`attempt` is the number its claim returned). Null: it does not (another
   * attempt took over after the lease, or the run was cancelled); the result is then not recorded.
   */
  async completeStep(runId: string, index: number, attempt: number, result: StepResult, outcome: StepOutcome): Promise<Run | null> {
    const ending = 'end' in outcome;
    const values: Record<string, unknown> = {
      ':result': [result],
      ':index': index,
      ':attempt': attempt,
      ':claimed': 'claimed',
      ':running': 'running',
      ':at': result.completed_at,
    };
    let set = 'history = list_append(history, :result), updated_at = :at, lease_until = :none, attempt = :zero';
    values[':none'] = null;
    values[':zero'] = 0;
    if (ending) {
      set += ', #status = :end, ended_at = :at, #error = :error';
      values[':end'] = outcome.end;
      values[':error'] = outcome.end === 'failed' ? outcome.error : null;
    } else {
      set += ', step_index = :next, step_state = :pending';
      values[':next'] = outcome.next;
      values[':pending'] = 'pending';
    }
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: `SET ${set}`,
      ConditionExpression: '#status = :running AND step_index = :index AND step_state = :claimed AND attempt = :attempt',
      ExpressionAttributeNames: { '#status': 'status', ...(ending ? { '#error': 'error' } : {}) },
      ExpressionAttributeValues: values,
    });
    return item ? toRun(item) : null;
  }

  /** Cancels a running run (cancel_on_events, a paused or deleted automation); null when it was not running. */
  async cancel(runId: string, at: string): Promise<Run | null> {
    const item = await updateIfCondition(this.table, {
      Key: keys.run(runId),
      UpdateExpression: 'SET #status = :cancelled, ended_at = :at, updated_at = :at, lease_until = :none',
      ConditionExpression: '#status = :running',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':cancelled': 'cancelled', ':at': at, ':none': null, ':running': 'running' },
    });
    return item ? toRun(item) : null;
  }
}
