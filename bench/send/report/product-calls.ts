/** The goal of the whole pipeline: product SDK calls per delivered email (request path included), and a phase's figure. */
import { splitCall } from '../../lib/observe';
import type { Measured } from '../results';

export const PRODUCT_CALLS_GOAL = 12;

/** Product SDK calls per delivered email over the phase and its drain (every thread of the stack). */
export function productCallsPerEmail(phase: Measured): number {
  const product = Object.entries(phase.pipelineCalls ?? {}).filter(([key]) => splitCall(key).origin === 'product');
  return product.reduce((sum, [, count]) => sum + count, 0) / (phase.result.ok || 1);
}

/** PASS or MISS against the goal. */
export const productCallsVerdict = (perEmail: number) => (perEmail <= PRODUCT_CALLS_GOAL ? 'PASS' : 'MISS');
