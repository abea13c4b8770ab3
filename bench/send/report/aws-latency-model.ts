/** The latency model --aws-latency injects (lib/aws-latency.cjs): p50, p99 and source per operation. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { LATENCY } = require('../../lib/aws-latency.cjs') as {
  LATENCY: Record<string, { p50: number; p99: number; source: string }>;
};
