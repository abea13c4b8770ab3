/**
 * Where a run goes after a step (docs/automations.md, "Steps"): the step's `next` key, else the
 * following step; past the last step the run ends. A wait's timeout goes where `on_timeout` says. The
 * one copy of these rules, used by the run engine and the dry run alike. Pure.
 */
import type { Step, WaitForEventStep } from './automation';

/** The index of the step to run next, or `end` (the run completes). */
export type Flow = { next: number } | { end: true };

function indexOfKey(steps: readonly Step[], key: string): number {
  const index = steps.findIndex((step) => step.key === key);
  // Validation refuses unknown keys; a run holding one anyway (a copy from an older rule) ends there.
  return index;
}

/** A flow as a run's write records it: the next step pending, or the run completed. */
export function flowOutcome(flow: Flow): { next: number } | { end: 'completed' } {
  return 'end' in flow ? { end: 'completed' } : { next: flow.next };
}

/** After the step at `index` completed normally (a send, a delay, a wait whose event came, a true condition). */
export function flowAfter(steps: readonly Step[], index: number): Flow {
  const step = steps[index];
  if (step?.next !== undefined) {
    const target = indexOfKey(steps, step.next);
    return target < 0 ? { end: true } : { next: target };
  }
  return index + 1 < steps.length ? { next: index + 1 } : { end: true };
}

/** After the wait at `index` timed out: `end` (the default), `continue` (as if the event came), or a step key. */
export function flowAfterTimeout(steps: readonly Step[], index: number): Flow {
  const step = steps[index] as WaitForEventStep | undefined;
  const onTimeout = step?.on_timeout ?? 'end';
  if (onTimeout === 'end') return { end: true };
  if (onTimeout === 'continue') return flowAfter(steps, index);
  const target = indexOfKey(steps, onTimeout);
  return target < 0 ? { end: true } : { next: target };
}
