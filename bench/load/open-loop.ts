/**
 * An open-loop load: operation k is due at start + k / rate seconds, whatever the answers before it did (a
 * closed loop slows down with the server and hides its queueing; users' traffic does not wait). A send due
 * while `maxInFlight` are unanswered is not issued and counted: the deployment did not keep up.
 */

export interface OpenLoopResult {
  /** Operations issued, and those due but not issued (too many in flight). */
  issued: number;
  notIssued: number;
  /** Latency of each answered operation (ms), in issue order. */
  latencies: number[];
  /** Answers by label ("200", "429 rate_limit_exceeded", "ECONNRESET", ...). */
  outcomes: Record<string, number>;
  ok: number;
  /** From the first issue to the last answer (ms). */
  elapsedMs: number;
}

export interface OpenLoopOutcome {
  ok: boolean;
  label: string;
}

export async function openLoop(
  options: { rate: number; durationMs: number; maxInFlight: number; now?: () => number; sleep?: (ms: number) => Promise<void> },
  operation: (sequence: number) => Promise<OpenLoopOutcome>,
): Promise<OpenLoopResult> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const total = Math.floor(options.rate * (options.durationMs / 1000));
  const result: OpenLoopResult = { issued: 0, notIssued: 0, latencies: [], outcomes: {}, ok: 0, elapsedMs: 0 };
  const pending = new Set<Promise<void>>();
  const started = now();
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / options.rate;
    const wait = due - now();
    if (wait > 0) await sleep(wait);
    if (pending.size >= options.maxInFlight) {
      result.notIssued++;
      continue;
    }
    result.issued++;
    const t0 = now();
    const call = operation(k)
      .catch((error: unknown) => {
        const err = error as Error & { code?: string; cause?: { code?: string } };
        return { ok: false, label: err.cause?.code ?? err.code ?? err.name ?? 'Error' };
      })
      .then((outcome) => {
        result.latencies.push(now() - t0);
        result.outcomes[outcome.label] = (result.outcomes[outcome.label] ?? 0) + 1;
        if (outcome.ok) result.ok++;
        pending.delete(call);
      });
    pending.add(call);
  }
  await Promise.all(pending);
  result.elapsedMs = now() - started;
  return result;
}
