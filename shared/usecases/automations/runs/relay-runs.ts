/**
 * The automation outbox (the `automation-outbox` stream worker): every write of a run item reaches this
 * use case through the table's stream, in order, and it
 *   a. hands the run's step to the automation-steps queue when the write left it pending (a new run, a
 *      step finished, a wait ended), so nothing on the request path or in a worker can strand a run
 *      between two steps;
 *   b. publishes the automation.* webhooks the write stands for (`runEvents`: the run before vs after).
 * Both are at least once and harmless to repeat: the worker claims each step with a conditional write,
 * and event ids derive from (run, type, step). The writes arrive as the changes they stand for
 * (shared/adapters/store/run-changes.ts: run_started, run_changed, run_step_pending); a batch that fails is
 * retried whole by the event source.
 */
import { runEvents } from '#shared/domain/automations/run-events';
import type { AutomationStepMessage } from '#shared/domain/messages';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import type { AutomationStepQueue } from '#shared/ports/queues';
import type { EventPublisher } from '#shared/ports/events';
import type { RunChange } from '#shared/adapters/store/run-changes';
import type { StreamRecordChanges } from '#shared/adapters/store/stream-record';

/** One stream record's changes, in stream order. */
export type RunRecord = Pick<StreamRecordChanges<RunChange>, 'changes'>;

export interface RelayRunsDeps {
  stepQueue: AutomationStepQueue;
  events: Pick<EventPublisher, 'publish'>;
}

export interface RelayRunsResult {
  done: number;
  enqueued: number;
  published: number;
}

export async function relayRuns(deps: RelayRunsDeps, records: readonly RunRecord[]): Promise<RelayRunsResult> {
  const steps: AutomationStepMessage[] = [];
  const events: ServiceEvent[] = [];
  for (const change of records.flatMap((record) => record.changes)) {
    switch (change.kind) {
      case 'run_step_pending':
        steps.push({ run_id: change.run_id, step_index: change.step_index });
        break;
      case 'run_started':
        events.push(...runEvents(null, change.run));
        break;
      case 'run_changed':
        events.push(...runEvents(change.before, change.after));
        break;
    }
  }
  if (steps.length) await deps.stepQueue.enqueueAll(steps);
  if (events.length) await deps.events.publish(events);
  return { done: records.length, enqueued: steps.length, published: events.length };
}
