/** What the local cloud's /health says Lambda would bill (localstack/cloud/lambda/lambda-billing.ts), and the difference of two readings. */

export type LambdaUsage = Record<string, { invocations: number; billed_ms: number; memory_mb: number }>;

export async function readLambdaUsage(apiUrl: string): Promise<LambdaUsage> {
  const response = await fetch(`${apiUrl}/health`);
  const body = (await response.json()) as { lambda?: LambdaUsage };
  return body.lambda ?? {};
}

/** `after` minus `before`, by function; functions not invoked between them are left out. */
export function lambdaUsageBetween(before: LambdaUsage, after: LambdaUsage): LambdaUsage {
  const out: LambdaUsage = {};
  for (const [name, now] of Object.entries(after)) {
    const then = before[name] ?? { invocations: 0, billed_ms: 0, memory_mb: now.memory_mb };
    const invocations = now.invocations - then.invocations;
    if (invocations > 0) out[name] = { invocations, billed_ms: now.billed_ms - then.billed_ms, memory_mb: now.memory_mb };
  }
  return out;
}
