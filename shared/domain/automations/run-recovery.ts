/**
 * What the reconciler does with a run found past due in the due index (docs/reliability.md,
 * docs/automations.md "Runs"). Pure. A run is due when nothing moved it in time:
 *
 *   pending, not claimed within the bound        -> its step message again (the outbox's was lost)
 *   claimed, the attempt's lease ended (it died)  -> its step message again (the claim takes over)
 *   waiting, past its wake time + the late bound  -> its wake message (the schedule's firing was lost)
 *   ended                                         -> out of the index
 *
 * Every message it sends is one the worker may receive twice: the claim (or the waiting condition)
 * makes the second one do nothing. After a re-drive the run is due again one bound later.
 */
import type { RecoveryBounds } from '../reliability/bounds';
import type { AutomationStepMessage } from '../messages';
import type { Run } from './run';

export type RunRecovery =
  | { kind: 'redrive'; message: AutomationStepMessage; dueAt: number }
  | { kind: 'wait'; dueAt: number }
  | { kind: 'clear' };

export function recoverRun(
  run: Run,
  now: number,
  bounds: Pick<RecoveryBounds, 'queuedRedriveAfterMs' | 'scheduledLateAfterMs'>,
): RunRecovery {
  if (run.status !== 'running') return { kind: 'clear' };
  const step = { run_id: run.id, step_index: run.step_index };
  switch (run.step_state) {
    case 'pending':
      return { kind: 'redrive', message: step, dueAt: now + bounds.queuedRedriveAfterMs };
    case 'claimed':
      if (run.lease_until !== null && run.lease_until > now) return { kind: 'wait', dueAt: run.lease_until };
      return { kind: 'redrive', message: step, dueAt: now + bounds.queuedRedriveAfterMs };
    case 'waiting': {
      const wakeAt = run.wake_at ? Date.parse(run.wake_at) : now;
      if (wakeAt > now) return { kind: 'wait', dueAt: wakeAt + bounds.scheduledLateAfterMs };
      return { kind: 'redrive', message: { ...step, wake: true }, dueAt: now + bounds.scheduledLateAfterMs };
    }
  }
}
