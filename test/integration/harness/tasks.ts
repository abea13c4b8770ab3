/**
 * The stack's scheduled tasks on request (`POST /_local/tasks/<name>/run`; docs/reliability.md): a test
 * that waits for the reconciler asks for its passes instead of waiting for its timer (every 15 s on the shared
 * stack: a pass queries the due index's 32 shards, which every 4 s was 8 queries a second for the whole run).
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
 * `waitFor(probe)` with a reconciler pass before each look, at most one every `everyMs`: recovery that takes a
 * pass after a bound (a lease, a re-check time) is seen as soon as the bound passes.
 */
export function waitWithReconciler<T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 1000,
): Promise<T> {
  return waitFor(
    async () => {
      await runTask('reconciler');
      return probe();
    },
    what,
    timeoutMs,
    everyMs,
  );
}
