/**
 * The automation outbox (the `automation-outbox` stream worker): every write of a run item reaches this
 * use case through the table's stream, in order, and it
 *   a. hands the run's step to the automation-steps queue when the write left it pending (a new run, a
 *      step finished, a wait ended), so nothing on the request path or in a worker can strand a run
 *      between two steps;
 *   b. publishes the automation.* webhooks the write stands for (`runEvents`: old image vs new image).
 * Both are at least once and harmless to repeat: the worker claims each step with a conditional write,
 * and event ids derive from (run, type, step). A batch that fails is retried whole by the event source;
 * a record whose image is not a run can never be relayed and is reported as such.
 */
import { runEvents } from '../../domain/automations/run-events';
import type { Run } from '../../domain/automations/run';
import type { AutomationStepMessage } from '../../domain/messages';
import type { ServiceEvent } from '../../domain/webhooks/event';
import type { AutomationStepQueue, EventPublisher } from '../../ports';
import { runFromItem } from '../../store/runs';

export interface RunRecord {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

export interface RelayRunsDeps {
  stepQueue: AutomationStepQueue;
  events: Pick<EventPublisher, 'publish'>;
}

export interface RelayRunsResult {
  done: number;
  enqueued: number;
  published: number;
  failure?: string;
  permanent?: boolean;
}

const isRunImage = (image: Record<string, unknown> | undefined): image is Record<string, unknown> =>
  image !== undefined && image.type === 'run' && typeof image.id === 'string' && Array.isArray(image.history) && Array.isArray(image.steps);

/** The write left the step at `step_index` pending, and it was not pending there before. */
function newlyPending(before: Run | null, after: Run): boolean {
  if (after.status !== 'running' || after.step_state !== 'pending') return false;
  return before === null || before.step_state !== 'pending' || before.step_index !== after.step_index || before.status !== 'running';
}

export async function relayRuns(deps: RelayRunsDeps, records: readonly RunRecord[]): Promise<RelayRunsResult> {
  const steps: AutomationStepMessage[] = [];
  const events: ServiceEvent[] = [];
  let done = records.length;
  let failure: string | undefined;
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    if (record.eventName === 'REMOVE') continue;
    if (!isRunImage(record.newImage)) {
      done = index;
      failure = 'a run record without a readable run image';
      break;
    }
    const after = runFromItem(record.newImage);
    const before = record.eventName === 'MODIFY' && isRunImage(record.oldImage) ? runFromItem(record.oldImage) : null;
    if (newlyPending(before, after)) steps.push({ run_id: after.id, step_index: after.step_index });
    // A MODIFY without an old image (another stream view) cannot tell what changed: publish nothing
    // rather than a second automation.started.
    if (record.eventName === 'INSERT' || before !== null) events.push(...runEvents(before, after));
  }
  // The records before the unreadable one are relayed; it is reported as never relayable (bisected out).
  if (steps.length) await deps.stepQueue.enqueueAll(steps);
  if (events.length) await deps.events.publish(events);
  return { done, enqueued: steps.length, published: events.length, ...(failure ? { failure, permanent: true } : {}) };
}
