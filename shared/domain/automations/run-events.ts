/**
 * The automation.* webhooks a run's write stands for, derived from its image before and after the write
 * (the automation outbox reads them from the table's stream, so a crash between a transition and its
 * publication cannot lose the event):
 *
 *   created                          automation.started        (step 0)
 *   each result appended to history  automation.step_completed (a completed or skipped step)
 *   status -> completed              automation.completed      (the last step run, or a false condition)
 *   status -> failed                 automation.failed         (the failing step and its error)
 *
 * A cancelled run publishes nothing (the spec has no event for it; GET .../runs/{id} shows it). Payload
 * (spec, "Payload data shapes"): automation_id, automation_name, run_id, status, event_name, step_index,
 * step_type, error; plus the step's key and the run's event id (additions). `status` is the run's:
 * `running` in step payloads, `completed` / `failed` in the end events. Event ids derive from (run,
 * type, step), so a write seen twice (a stream retry) publishes each event once. Pure.
 */
import { deterministicId } from '../ids';
import type { ServiceEvent } from '../webhooks/event';
import type { EventType } from '../webhooks/event-types';
import type { Run, StepResult } from './run';

function event(
  run: Run,
  type: EventType,
  at: string,
  step: { index: number; key: string; type: string } | null,
  error: string | null,
  status: string,
): ServiceEvent {
  const index = step?.index ?? null;
  return {
    id: deterministicId('evt', Date.parse(run.created_at), `${run.id}:${type}:${index ?? ''}`),
    type,
    account_id: run.account_id,
    tenant: null,
    created_at: at,
    data: {
      automation_id: run.automation_id,
      automation_name: run.automation_name,
      run_id: run.id,
      status,
      event_name: run.event.name,
      event_id: run.event.id,
      step_index: index,
      step_key: step?.key ?? null,
      step_type: step?.type ?? null,
      error,
    },
  };
}

const stepOf = (result: StepResult) => ({ index: result.index, key: result.key, type: result.type });

/** The events of one write of a run: `before` is null for its creation. */
export function runEvents(before: Run | null, after: Run): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  if (before === null) {
    const first = after.steps[0];
    events.push(
      event(after, 'automation.started', after.created_at, first ? { index: 0, key: first.key, type: first.type } : null, null, 'running'),
    );
  }
  const seen = before?.history.length ?? 0;
  for (const result of after.history.slice(seen)) {
    if (result.status === 'failed') continue; // reported by automation.failed
    events.push(event(after, 'automation.step_completed', result.completed_at, stepOf(result), null, 'running'));
  }
  const ended = (before === null || before.status === 'running') && after.status !== 'running';
  if (ended && (after.status === 'completed' || after.status === 'failed')) {
    const last = after.history[after.history.length - 1];
    const step = last ? stepOf(last) : null;
    const at = after.ended_at ?? after.updated_at;
    events.push(
      event(
        after,
        `automation.${after.status}`,
        at,
        step,
        after.status === 'failed' ? (after.error ?? last?.error ?? 'failed') : null,
        after.status,
      ),
    );
  }
  return events;
}
