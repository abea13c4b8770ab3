/**
 * What the automation outbox reads of the table's stream (shared/usecases/automations/runs/relay-runs.ts): a write
 * of a run item is
 *   run_started       its INSERT (the new run);
 *   run_changed       a MODIFY, with the run before and after it (without a readable old image there is
 *                     no telling what changed: no run_changed);
 *   run_step_pending  either of them, when it left a step pending that was not pending before
 *                     (leftStepPending: the step is to be handed to the automation-steps queue).
 * Removals stand for nothing. Any other write the worker is handed must be a run's: one whose new image
 * is not a run can never be relayed and stops the batch (stream-record.ts).
 */
import { leftStepPending, type Run } from '../../domain/automations/run';
import { StoredItemError } from './decode';
import { runFromItem } from './runs';
import { MalformedImage, type StreamReader, type StreamWrite } from './stream-record';

export type RunChange =
  | { kind: 'run_started'; run: Run }
  | { kind: 'run_changed'; before: Run; after: Run }
  | { kind: 'run_step_pending'; run_id: string; step_index: number };

const UNREADABLE = 'a run record without a readable run image';

/** The run an image holds (decoded once), or why it holds none. */
function runOf(image: Record<string, unknown> | undefined): Run | { unreadable: string } {
  if (image?.type !== 'run') return { unreadable: UNREADABLE };
  try {
    return runFromItem(image);
  } catch (error) {
    if (error instanceof StoredItemError) return { unreadable: `${UNREADABLE}: ${error.problems.join('; ')}` };
    throw error;
  }
}

function changesOf(write: StreamWrite): RunChange[] {
  if (write.eventName === 'REMOVE') return [];
  const after = runOf(write.newImage);
  if ('unreadable' in after) throw new MalformedImage(after.unreadable);
  const old = write.eventName === 'MODIFY' ? runOf(write.oldImage) : null;
  const before = old === null || 'unreadable' in old ? null : old;
  const changes: RunChange[] = [];
  if (write.eventName === 'INSERT') changes.push({ kind: 'run_started', run: after });
  else if (before) changes.push({ kind: 'run_changed', before, after });
  if (leftStepPending(before, after)) changes.push({ kind: 'run_step_pending', run_id: after.id, step_index: after.step_index });
  return changes;
}

/** The automation outbox's reader: a write that is not a run's stops the batch. */
export const runWrites: StreamReader<RunChange> = { onMalformed: 'stop', changesOf };
