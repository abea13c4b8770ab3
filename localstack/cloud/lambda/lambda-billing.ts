/**
 * What Lambda would bill for this thread's invocations of each function: requests, and duration rounded up
 * to the millisecond per invocation ("Duration is calculated from the time your code begins executing until
 * it returns or otherwise terminates, rounded up to the nearest 1 ms": https://aws.amazon.com/lambda/pricing/).
 * A failed or timed-out invocation is billed as any other (up to its timeout). The INIT phase of a cold
 * start (billed since 2025-08-01) is not measured here: the local cloud loads each function once per thread.
 *
 * Counted in each thread that invokes handlers (the API server's, the workers'); /health adds them up with
 * each function's configured memory (`lambda` in stack-health.ts), and the send bench prices them.
 */

export interface FunctionBilling {
  invocations: number;
  /** Sum of each invocation's duration rounded up to 1 ms. */
  billed_ms: number;
}

const billing = new Map<string, FunctionBilling>();

/** One invocation of `name` that ran `elapsedMs` (from the handler's start to its settling). */
export function recordInvocation(name: string, elapsedMs: number): void {
  const entry = billing.get(name) ?? { invocations: 0, billed_ms: 0 };
  entry.invocations += 1;
  entry.billed_ms += Math.max(1, Math.ceil(elapsedMs));
  billing.set(name, entry);
}

/** This thread's totals so far, by function name. */
export function billingSnapshot(): Record<string, FunctionBilling> {
  return Object.fromEntries([...billing].map(([name, entry]) => [name, { ...entry }]));
}

/** Totals of several threads, by function name. */
export function addBilling(...parts: Record<string, FunctionBilling>[]): Record<string, FunctionBilling> {
  const sum: Record<string, FunctionBilling> = {};
  for (const part of parts) {
    for (const [name, entry] of Object.entries(part)) {
      sum[name] ??= { invocations: 0, billed_ms: 0 };
      const total = sum[name];
      total.invocations += entry.invocations;
      total.billed_ms += entry.billed_ms;
    }
  }
  return sum;
}
