/**
 * Polling until something holds, for every tier of tests. A wait that times out says why: what it
 * waited for, how many times it looked, the last error its probe threw (with the attempt it threw on)
 * and the last value it returned, never a bare "timed out".
 */
export class WaitTimeout extends Error {
  constructor(
    message: string,
    /** The probe's last error, if it ever threw. */
    readonly lastError: unknown,
    /** Whether the last attempt threw (rather than answered "not yet"). */
    readonly lastAttemptThrew: boolean,
  ) {
    super(message, lastError === undefined ? undefined : { cause: lastError });
  }
}

/**
 * For a wait whose caller then asserts on what it saw (`.catch(unlessProbeFailed)`): a timeout because the
 * condition never held is let through, so the caller's assertion shows the values; a probe that was
 * failing at the end (a refused request, a broken answer) is the cause, and is thrown.
 */
export function unlessProbeFailed(error: unknown): void {
  if (!(error instanceof WaitTimeout) || error.lastAttemptThrew) throw error;
}

function preview(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 300 ? `${value.slice(0, 300)}...` : value);
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text.length > 300 ? `${text.slice(0, 300)}...` : text;
  } catch {
    // not JSON-able (a cycle, a BigInt): String() below
  }
  return String(value);
}

/**
 * How long a wait lasts unless told: 30 s. The whole suite runs three files at once on two cores, and since
 * SES publishes an event per recipient the pipelines (outbox, router, webhook deliveries, stats) under
 * that load took longer than 15 s now and then (a webhook of tenant-sending, once in three whole runs).
 * A condition that holds returns at once; only a failing wait waits this long.
 */
export const DEFAULT_WAIT_MS = 30_000;

/** The longest pause between two looks (unless `everyMs` is longer). */
export const MAX_POLL_MS = 500;

/**
 * The pause after the `attempt`th look: `everyMs`, growing by half each time up to MAX_POLL_MS. Most probes
 * of the integration tests are API requests the shared stack serves (GET /emails/{id} every 50 ms while a
 * pipeline moves an email: with this back-off nine of the heaviest files took 156 s of the shared stack's CPU
 * instead of 182 s, 2026-11-27). A condition that holds at once is still seen at once; one that takes seconds
 * is looked at a few times a second, not twenty.
 */
export function pollDelayMs(everyMs: number, attempt: number): number {
  return Math.min(everyMs * 1.5 ** (attempt - 1), Math.max(everyMs, MAX_POLL_MS));
}

/**
 * Calls `probe` until it returns a truthy value, which it returns: again after `everyMs`, then less and
 * less often (pollDelayMs). A probe that throws is called again; after `timeoutMs` the wait fails with a
 * WaitTimeout naming `what` and the cause.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = DEFAULT_WAIT_MS,
  everyMs = 50,
): Promise<T> {
  const started = Date.now();
  let attempts = 0;
  let lastError: { error: unknown; attempt: number } | undefined;
  let lastValue: { value: unknown } | undefined;
  let lastAttemptThrew = false;
  for (;;) {
    attempts++;
    try {
      const value = await probe();
      if (value) return value;
      lastValue = { value };
      lastAttemptThrew = false;
    } catch (error) {
      lastError = { error, attempt: attempts };
      lastAttemptThrew = true;
    }
    if (Date.now() - started >= timeoutMs) break;
    const left = timeoutMs - (Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollDelayMs(everyMs, attempts), left)));
  }
  const causes: string[] = [];
  if (lastError)
    causes.push(
      `the probe last threw on attempt ${lastError.attempt}: ${lastError.error instanceof Error ? lastError.error.message : preview(lastError.error)}`,
    );
  if (lastValue) causes.push(`it last returned ${preview(lastValue.value)}`);
  throw new WaitTimeout(
    `timed out after ${timeoutMs} ms (${attempts} attempts) waiting for ${what}${causes.length ? `; ${causes.join('; ')}` : ''}`,
    lastError?.error,
    lastAttemptThrew,
  );
}
