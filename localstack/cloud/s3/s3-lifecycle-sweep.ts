/**
 * The local S3's lifecycle: expires objects and aborts incomplete multipart uploads as the buckets' rules
 * say (../template/s3-lifecycle-rules.ts), as S3 does in AWS.
 *
 * When: S3 adds the rule's days to the object's creation time (its Last-Modified here) and rounds the
 * result up to the next midnight UTC; the object is eligible from then. Created 2026-01-15 10:30 UTC under
 * a 1-day rule: expires from 2026-01-17 00:00 UTC
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html "Lifecycle
 * configuration elements"). An AbortIncompleteMultipartUpload rule counts from the upload's initiation the
 * same way (https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpu-abort-incomplete-mpu-lifecycle-config.html).
 * A time exactly at midnight stays there: AWS does not say, our choice.
 *
 * Expiration is asynchronous in AWS: S3 queues eligible objects and removes them some time after (hours,
 * up to days); billing stops at eligibility. Locally the sweep runs at start and then every hour
 * (./s3-lifecycle-sweeper.ts), so an object is gone within the hour after it becomes eligible: code must
 * not count on an object being gone, nor on it still being there, once it is eligible.
 *
 * The sweep works on the local S3's store through its public methods (../messaging/tracked-s3-store.ts lists
 * the incomplete multipart uploads: fauxqs has no ListMultipartUploads); deletions go through its
 * deleteObject, so the messaging journal records them (../messaging/messaging-journal.ts).
 */
import type { IncompleteUpload } from '../messaging/tracked-s3-store';
import type { BucketLifecycle } from '../template/s3-lifecycle-rules';

/** What the sweep reads and changes of the local S3's store. */
export interface SweepableS3Store {
  hasBucket(bucket: string): boolean;
  listObjects(bucket: string, options: { maxKeys: number }): { objects: { key: string; lastModified: Date }[] };
  incompleteUploads(): IncompleteUpload[];
  deleteObject(bucket: string, key: string): void;
  abortMultipartUpload(uploadId: string): void;
}

export interface SweepResult {
  /** `bucket/key` of each object expired. */
  expired: string[];
  /** `bucket/key (uploadId)` of each multipart upload aborted. */
  aborted: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When an object created at `created` becomes eligible under a `days`-day rule: created + days, up to the next midnight UTC. */
export function lifecycleDueAt(created: Date, days: number): Date {
  const due = new Date(created.getTime() + days * DAY_MS);
  const midnight = Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate());
  return midnight === due.getTime() ? due : new Date(midnight + DAY_MS);
}

/**
 * Applies every bucket's rules at `now` (a function of the time, so tests can sweep days ahead), to the
 * keys starting with `within` only when given (tests sharing one local cloud sweep their own keys).
 */
export function sweepLifecycle(store: SweepableS3Store, lifecycles: BucketLifecycle[], now: Date, within = ''): SweepResult {
  const result: SweepResult = { expired: [], aborted: [] };
  const due = (created: Date, days: number | undefined) => days !== undefined && lifecycleDueAt(created, days).getTime() <= now.getTime();
  const covers = (rule: { prefix: string }, key: string) => key.startsWith(within) && key.startsWith(rule.prefix);
  for (const { bucket, rules } of lifecycles) {
    if (!store.hasBucket(bucket)) continue;
    for (const { key, lastModified } of store.listObjects(bucket, { maxKeys: Number.MAX_SAFE_INTEGER }).objects) {
      if (rules.some((rule) => covers(rule, key) && due(lastModified, rule.expirationDays))) {
        store.deleteObject(bucket, key);
        result.expired.push(`${bucket}/${key}`);
      }
    }
    for (const upload of store.incompleteUploads()) {
      if (upload.bucket !== bucket) continue;
      if (rules.some((rule) => covers(rule, upload.key) && due(upload.initiated, rule.abortIncompleteMultipartUploadDays))) {
        store.abortMultipartUpload(upload.uploadId);
        result.aborted.push(`${bucket}/${upload.key} (${upload.uploadId})`);
      }
    }
  }
  return result;
}
