/**
 * The stack's scheduled tasks on request (`POST /_local/tasks/<name>/run`; docs/reliability.md): a test
 * that waits for a task's work asks for its passes instead of waiting for its timer (the reconciler every 15 s
 * on the shared stack: a pass queries the due index's 32 shards, which every 4 s was 8 queries a second for the
 * whole run).
 */
import { stack, waitFor } from './stack';

export interface TaskStatus {
  state: string;
  passes: number;
  last_pass_at: string | null;
  last_report: unknown;
  totals: Record<string, number>;
}

/** A pass of the task now (after the one running, if any); its status after it. */
export async function runTask(name = 'reconciler'): Promise<TaskStatus> {
  const response = await fetch(`${stack().apiUrl}/_local/tasks/${name}/run`, { method: 'POST' });
  const body = (await response.json()) as TaskStatus;
  if (response.status !== 200) throw new Error(`POST /_local/tasks/${name}/run answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * `waitFor(probe)` with a pass of `task` before each look, at most one every `everyMs`: work that takes the
 * task's passes (the reconciler's recovery after a bound, the domain-health task's steps of a hosted MTA-STS
 * policy or a link domain) is seen as soon as a pass did it, instead of on the task's timer (every 4 s, 15 s
 * the reconciler, on the shared stack: a file of five hosting steps waited 20 s on the timer alone).
 */
export function waitWithTask<T>(
  task: 'reconciler' | 'domain-health',
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 1000,
): Promise<T> {
  return waitFor(
    async () => {
      await runTask(task);
      return probe();
    },
    what,
    timeoutMs,
    everyMs,
  );
}

/** `waitWithTask` with the reconciler's passes. */
export function waitWithReconciler<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 1000,
): Promise<T> {
  return waitWithTask('reconciler', probe, what, timeoutMs, everyMs);
}
