/**
 * Context `workerConcurrency` (`cdk deploy -c workerConcurrency=send-email:100,webhook-delivery:400`): each named
 * SQS worker's event source runs at most that many invocations at once instead of its definition's
 * `maxConcurrency` (infra/definitions/workers.ts, WORKERS). The defaults suit a new SES account's send rate; a
 * deployment with a higher SES quota raises them with it (docs/deploy.md, "SES quota": the send worker's
 * about 50 sends a second per invocation at SES's latency, a webhook delivery's one POST at a time).
 * Lambda takes 2 to 1,000 (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html).
 */
import { WORKERS } from './definitions';

export const WORKER_CONCURRENCY_CONTEXT = 'workerConcurrency';
const MIN = 2;
const MAX = 1000;

/** The concurrency of each worker the context names (unnamed workers keep their definition's); throws on a bad value. */
export function workerConcurrencyOverrides(context: unknown): Record<string, number> {
  if (context === undefined || context === '') return {};
  const overrides: Record<string, number> = {};
  for (const entry of String(context).split(',')) {
    const [name = '', value = ''] = entry.split(':').map((part) => part.trim());
    if (!WORKERS.some((worker) => worker.name === name)) {
      throw new Error(
        `context ${WORKER_CONCURRENCY_CONTEXT}: '${name}' is not an SQS worker (one of ${WORKERS.map((worker) => worker.name).join(', ')}); write name:count,name:count`,
      );
    }
    const count = Number(value);
    if (!Number.isInteger(count) || count < MIN || count > MAX) {
      throw new Error(
        `context ${WORKER_CONCURRENCY_CONTEXT}: ${name}'s concurrency must be a whole number from ${MIN} to ${MAX} (Lambda's limits for an SQS event source), got '${value}'`,
      );
    }
    overrides[name] = count;
  }
  return overrides;
}
