/**
 * Runs the local S3's lifecycle sweep (./s3-lifecycle-sweep.ts) once at start and then every hour, by
 * the functions' clock (../stack/local-clock.ts), as the DynamoDB TTL sweep (../dynamodb/dynamodb-ttl-sweep.ts). S3's own
 * expiration is asynchronous too (docs/local-cloud/s3.md).
 */
import { functionsNow } from '../dynamodb/dynamodb-ttl-sweep';
import { bucketLifecycles, type BucketLifecycle } from '../template/s3-lifecycle-rules';
import type { DeployedStack } from '../template/deployed-stack';
import { sweepLifecycle, type SweepableS3Store, type SweepResult } from './s3-lifecycle-sweep';

export const LIFECYCLE_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface LifecycleSweeper {
  /** One sweep now (or at `now`, of the keys starting with `within`); what it removed. */
  sweep(now?: Date, within?: string): SweepResult;
  stop(): void;
}

export function startLifecycleSweeper(options: {
  store: SweepableS3Store;
  lifecycles: BucketLifecycle[];
  intervalMs?: number;
  log?: (message: string) => void;
}): LifecycleSweeper {
  const withRules = options.lifecycles.filter((bucket) => bucket.rules.length);
  // The functions' clock by default (PUT /_local/clock moves it), as the DynamoDB TTL sweep's: a test that moves time sees both expire.
  const sweep = (now = functionsNow(), within = '') => {
    const result = sweepLifecycle(options.store, withRules, now, within);
    if (result.expired.length || result.aborted.length)
      options.log?.(`S3 lifecycle: expired ${result.expired.length} objects, aborted ${result.aborted.length} multipart uploads`);
    return result;
  };
  const safeSweep = () => {
    try {
      sweep();
    } catch (error) {
      options.log?.(`S3 lifecycle sweep failed: ${(error as Error).message}`);
    }
  };
  safeSweep();
  const timer = setInterval(safeSweep, options.intervalMs ?? LIFECYCLE_SWEEP_INTERVAL_MS);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}

/** The deployed buckets' rules swept on the local S3's store (../messaging/tracked-s3-store.ts). */
export function startS3Lifecycle(stack: DeployedStack, store: SweepableS3Store, log?: (message: string) => void): LifecycleSweeper {
  const lifecycles = bucketLifecycles(stack);
  if (!lifecycles.some((bucket) => bucket.rules.length)) return { sweep: () => ({ expired: [], aborted: [] }), stop: () => undefined };
  return startLifecycleSweeper({ store, lifecycles, log });
}
