/**
 * A RUN entry of the due index: the automation run read, the run recovery policy's action
 * (shared/domain/automations/run-recovery.ts) carried out: a step never handed over, a dead attempt or a
 * lost wake-up goes into the pass's automation-steps batch (its due time moved once it is queued); a live
 * lease or a future wake-up only moves its due time; an ended run leaves the index.
 */
import type { RecoveryBounds } from '#shared/domain/reliability/bounds';
import { recoverRun } from '#shared/domain/automations/run-recovery';
import type { DueEntryOf } from '#shared/adapters/store/due-work';
import type { RunRepository } from '#shared/adapters/store/runs';
import type { RecoveryPass } from './recovery-pass';

export interface RunRecoveryDeps {
  runs: Pick<RunRepository, 'get' | 'postponeDue' | 'clearDue'>;
  bounds: Pick<RecoveryBounds, 'queuedRedriveAfterMs' | 'scheduledLateAfterMs'>;
}

export async function recoverRunEntry(entry: DueEntryOf<'RUN'>, deps: RunRecoveryDeps, pass: RecoveryPass): Promise<void> {
  const run = await deps.runs.get(entry.runId);
  if (!run) return;
  const action = recoverRun(run, pass.now, deps.bounds);
  switch (action.kind) {
    case 'clear':
      pass.count('cleared');
      await deps.runs.clearDue(run.id);
      return;
    case 'wait':
      pass.count('waiting');
      await deps.runs.postponeDue(run.id, action.dueAt);
      return;
    case 'redrive':
      pass.steps.push({ message: action.message, postpone: () => deps.runs.postponeDue(run.id, action.dueAt) });
  }
}
