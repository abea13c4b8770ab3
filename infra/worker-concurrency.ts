/**
 * Context `workerConcurrency` (`cdk deploy -c workerConcurrency=send-email:100,webhook-delivery:400`): each named
 * SQS worker's event source runs at most that many invocations at once instead of its definition's
 * `maxConcurrency` (infra/definitions/workers.ts, WORKERS). The defaults suit a new SES account's send rate; a
 * deployment with a higher SES quota raises them with it (docs/deploy.md, "SES quota": the send worker's
 * about 50 sends a second per invocation at SES's latency, a webhook delivery's one POST at a time).
 * Lambda takes 2 to 1,000 (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html).
 *
 * Context `sesMaxSendRate` (`cdk deploy -c sesMaxSendRate=5000`, SES's MaxSendRate of the account, recipients a
 * second) sizes the send worker from it instead: enough invocations for that rate with a quarter to spare at
 * SENDS_PER_INVOCATION_PER_SECOND each, never fewer than its definition's; `workerConcurrency` naming send-email wins.
 */
import { WORKERS } from './definitions';

export const WORKER_CONCURRENCY_CONTEXT = 'workerConcurrency';
export const SES_RATE_CONTEXT = 'sesMaxSendRate';
const MIN = 2;
const MAX = 1000;
/** What one send-email invocation sends a second when paced above ~17/s: a batch of 10 in about 0.2 s (docs/deploy.md, "SES quota"). */
export const SENDS_PER_INVOCATION_PER_SECOND = 50;
/** SES's highest documented send rate is far below this; a larger value is a typo. */
const MAX_SES_RATE = 100_000;

/** The send worker's concurrency for an SES send rate (recipients a second): rate x 1.25 / 50, at least `floor`, at most 1,000. */
export function sendConcurrencyForRate(rate: number, floor: number): number {
  return Math.min(MAX, Math.max(floor, Math.ceil((rate * 1.25) / SENDS_PER_INVOCATION_PER_SECOND)));
}

/** The send rate the context gives, or undefined; throws on a bad value. */
export function sesRateFrom(context: unknown): number | undefined {
  if (context === undefined || context === '') return undefined;
  const rate = Number(context);
  if (!Number.isFinite(rate) || rate <= 0 || rate > MAX_SES_RATE) {
    throw new Error(
      `context ${SES_RATE_CONTEXT} must be SES's MaxSendRate for the account, recipients a second (above 0, at most ${MAX_SES_RATE.toLocaleString('en-US')}), got '${String(context)}'`,
    );
  }
  return rate;
}

/**
 * Each worker's concurrency from both contexts: `workerConcurrency`'s named counts, then the send worker sized
 * from `sesMaxSendRate` when that is set and workerConcurrency does not name it; others keep their definition's.
 */
export function workerConcurrencies(concurrencyContext: unknown, rateContext: unknown): Record<string, number> {
  const overrides = workerConcurrencyOverrides(concurrencyContext);
  const rate = sesRateFrom(rateContext);
  const send = WORKERS.find((worker) => worker.name === 'send-email');
  if (rate !== undefined && send && overrides[send.name] === undefined) {
    overrides[send.name] = sendConcurrencyForRate(rate, send.maxConcurrency ?? MIN);
  }
  return overrides;
}

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
