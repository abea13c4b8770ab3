/**
 * How long an account's data is kept (docs/retention.md): the defaults and bounds per plan, the account's
 * effective retention, and the `ttl` (epoch seconds) of a record. Pure: the store writes the ttl and
 * checks it on reads, DynamoDB's TTL deletes the items, and S3 lifecycle rules delete the objects tagged
 * with the same class (`retention=<days>d`: infra/constructs/data.ts).
 *
 * Retention is a number of days taken from a fixed list of classes (1, 7, 14, 30, 60, 90, 180, 365, 730):
 * a bucket's lifecycle rules are bucket-wide, so each class has one rule (a tag filter), and an object
 * lives exactly as long as its record. Any day count would need up to 730 rules (S3 allows 1,000 per
 * bucket, and each rule is evaluated for every object).
 */
import * as z from 'zod';
import type { PlanName } from './plans';

/** The retention classes: the only day counts accepted, each one S3 lifecycle rule. */
export const RETENTION_CLASSES_DAYS = [1, 7, 14, 30, 60, 90, 180, 365, 730] as const;
export type RetentionDays = (typeof RETENTION_CLASSES_DAYS)[number];

/** What expires, each kind with its own setting. */
export const RETENTION_KINDS = ['emails_days', 'received_emails_days', 'webhook_deliveries_days', 'imports_days'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type Retention = Record<RetentionKind, number>;

/** Per plan: the default of every kind, and the longest an account may choose. */
export const PLAN_RETENTION: Record<PlanName, { defaultDays: RetentionDays; maxDays: RetentionDays }> = {
  free: { defaultDays: 30, maxDays: 30 },
  pro: { defaultDays: 90, maxDays: 90 },
  scale: { defaultDays: 90, maxDays: 730 },
  dedicated: { defaultDays: 90, maxDays: 730 },
};

/** The shortest retention any plan may choose. */
export const MIN_RETENTION_DAYS: RetentionDays = RETENTION_CLASSES_DAYS[0];

/** What an account stores: only the kinds it changed (the others follow its plan's default). */
export const storedRetentionSchema = z.object(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, z.number().int().optional()])) as Record<
    RetentionKind,
    z.ZodOptional<z.ZodNumber>
  >,
);
export type StoredRetention = Partial<Retention>;

/** The plan's defaults for every kind. */
export function defaultRetention(plan: PlanName): Retention {
  const days = PLAN_RETENTION[plan].defaultDays;
  return Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, days])) as Retention;
}

/** The largest class not above `days` (a stored value above a downgraded plan's maximum falls to it). */
function classAtMost(days: number): RetentionDays {
  let chosen: RetentionDays = MIN_RETENTION_DAYS;
  for (const value of RETENTION_CLASSES_DAYS) if (value <= days) chosen = value;
  return chosen;
}

/** The account's retention: what it chose, else its plan's default; never above its plan's maximum. */
export function effectiveRetention(plan: PlanName, stored: StoredRetention | undefined): Retention {
  const max = PLAN_RETENTION[plan].maxDays;
  const defaults = defaultRetention(plan);
  return Object.fromEntries(
    RETENTION_KINDS.map((kind) => [kind, classAtMost(Math.min(stored?.[kind] ?? defaults[kind], max))]),
  ) as Retention;
}

/** Why a requested value is refused (null: accepted), in words for a 400 naming the field. */
export function retentionProblem(plan: PlanName, days: number): string | null {
  const max = PLAN_RETENTION[plan].maxDays;
  if (!Number.isInteger(days) || !(RETENTION_CLASSES_DAYS as readonly number[]).includes(days))
    return `must be one of ${RETENTION_CLASSES_DAYS.join(', ')} (days)`;
  if (days > max) return `must be at most ${max} days on the ${plan} plan`;
  return null;
}

const DAY_SECONDS = 24 * 60 * 60;

/** The ttl (epoch seconds) of a record kept `days` from `from` (ISO or Date): DynamoDB's TTL attribute. */
export function retentionTtl(days: number, from: string | Date): number {
  const ms = typeof from === 'string' ? Date.parse(from) : from.getTime();
  return Math.floor(ms / 1000) + days * DAY_SECONDS;
}

/** Whether an item's `ttl` has passed at `now`: an expired item reads as absent (DynamoDB's TTL deletes lazily). */
export function isExpired(item: { ttl?: unknown } | null | undefined, now: Date | number): boolean {
  const ms = typeof now === 'number' ? now : now.getTime();
  return !!item && typeof item.ttl === 'number' && item.ttl <= ms / 1000;
}

/** The S3 object tag of a retention class (`retention` = `30d`): one lifecycle rule per value. */
export const RETENTION_TAG_KEY = 'retention';
export const retentionTagValue = (days: number): string => `${days}d`;

/**
 * Objects (bodies, attachments, raw messages) are kept under a key prefix per class, `retention/<days>d/`,
 * each prefix with one S3 lifecycle rule expiring it after its days (infra/constructs/data.ts). A prefix
 * rather than an object tag: the key is written once with the object and travels in the record, a copy
 * keeps it, S3 charges nothing for it, and the local cloud's S3 (fauxqs) keeps no tags.
 */
export const RETENTION_KEY_ROOT = 'retention/';
export const retentionKeyPrefix = (days: RetentionDays): string => `${RETENTION_KEY_ROOT}${days}d/`;

/**
 * The class an object kept `days` after `from` is stored under, written at `writtenAt`: S3 counts from
 * the object's creation, so an object written before its window starts (a scheduled email's body) takes
 * the smallest class that covers the wait too (never shorter than its record; at most 730 days).
 */
export function objectRetentionDays(days: number, from: Date, writtenAt: Date): RetentionDays {
  const waitDays = Math.max(0, Math.ceil((from.getTime() - writtenAt.getTime()) / (DAY_SECONDS * 1000)));
  const needed = days + waitDays;
  return RETENTION_CLASSES_DAYS.find((value) => value >= needed) ?? RETENTION_CLASSES_DAYS[RETENTION_CLASSES_DAYS.length - 1]!;
}
