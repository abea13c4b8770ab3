/**
 * Per-tenant daily stats, kept as counters (never computed by scanning emails): one counter item per
 * tenant and UTC day of acceptance, whose fields are added to from the table's stream. Each write of a
 * tenant's email says which milestones it reached (by comparing the email before and after it), so a
 * stats call reads at most one item per day however many emails the tenant sent.
 *
 * Counted per email (not per recipient), by the day the email was accepted: "day D" is the emails
 * accepted on D and what has happened to them since, so its rates are well defined.
 */
import { BOUNCE_CATEGORIES, isBounceCategory, type BounceCategory } from '../bounces/bounce-category';

/** The milestones counted, shown as they are in the stats. */
export const MILESTONE_FIELDS = [
  'total',
  'queued',
  'scheduled',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'failed',
  'suppressed',
  'opened',
  'clicked',
] as const;
/** Emails that bounced or failed delivering, by their bounce category (docs/deliverability.md): `bounce_<category>`. */
export type BounceCategoryField = `bounce_${BounceCategory}`;
export const BOUNCE_CATEGORY_FIELDS: readonly BounceCategoryField[] = BOUNCE_CATEGORIES.map((category) => `bounce_${category}` as const);
export const STATS_FIELDS: readonly (MilestoneField | BounceCategoryField)[] = [...MILESTONE_FIELDS, ...BOUNCE_CATEGORY_FIELDS];
export type MilestoneField = (typeof MILESTONE_FIELDS)[number];
export type StatsField = MilestoneField | BounceCategoryField;
export type StatsCounts = Record<StatsField, number>;

/** The bounce category counters of some counts, by category. */
export function bounceCategoryCounts(counts: Partial<Record<BounceCategoryField, number>>): Record<BounceCategory, number> {
  return Object.fromEntries(BOUNCE_CATEGORIES.map((category) => [category, counts[`bounce_${category}`] ?? 0])) as Record<
    BounceCategory,
    number
  >;
}

export function emptyCounts(): StatsCounts {
  return Object.fromEntries(STATS_FIELDS.map((field) => [field, 0])) as StatsCounts;
}

/** What the counters read of one version of a tenant's email: its status, last event and the milestones it has. */
export interface EmailProgress {
  status?: string;
  last_event?: string;
  sent: boolean;
  delivered: boolean;
  opened: boolean;
  clicked: boolean;
  /** Refused at acceptance with an email.suppressed event. */
  suppressed: boolean;
  /** Why it bounced or was delayed (docs/deliverability.md, "Bounce categories"), when a bounce said. */
  bounce_category?: string;
}

/**
 * A write of an email (the table's stream, read by shared/adapters/store/email-stats-changes.ts): its
 * acceptance, or a later write with the email before and after it. `created_at` is the acceptance's;
 * `tenant_id` null for an email of no tenant (counted for its account and the deployment only).
 */
export type EmailStatsWrite =
  | { kind: 'email_accepted'; account_id: string; tenant_id: string | null; created_at: string; email: EmailProgress }
  | {
      kind: 'email_progressed';
      account_id: string;
      tenant_id: string | null;
      created_at: string;
      before: EmailProgress;
      after: EmailProgress;
    };

export interface StatsDelta {
  tenantId: string;
  day: string;
  counts: Partial<StatsCounts>;
}

const NOTHING_YET: EmailProgress = { sent: false, delivered: false, opened: false, clicked: false, suppressed: false };

type Milestone = 'sent' | 'delivered' | 'opened' | 'clicked';

/**
 * The counters one write of an email moves, or null (nothing reached). An acceptance counts total, and
 * queued, scheduled or suppressed; every write counts each milestone the email has after it and had not
 * before. By the day of acceptance.
 */
export function countsDelta(write: EmailStatsWrite): { day: string; counts: Partial<StatsCounts> } | null {
  const counts: Partial<StatsCounts> = {};
  const add = (field: StatsField) => (counts[field] = (counts[field] ?? 0) + 1);
  const accepted = write.kind === 'email_accepted';
  const after = accepted ? write.email : write.after;
  const before = accepted ? NOTHING_YET : write.before;
  if (accepted) {
    add('total');
    if (after.status === 'queued') add('queued');
    else if (after.status === 'scheduled') add('scheduled');
    else if (after.status === 'failed' && after.suppressed) add('suppressed');
  }
  const reached = (milestone: Milestone) => after[milestone] && !before[milestone];
  if (reached('sent')) add('sent');
  if (reached('delivered')) add('delivered');
  if (reached('opened')) add('opened');
  if (reached('clicked')) add('clicked');
  if (after.last_event === 'complained' && before.last_event !== 'complained') add('complained');
  const refusedAtAccept = accepted && after.status === 'failed';
  const bounced = after.status === 'bounced' && before.status !== 'bounced';
  const failed = after.status === 'failed' && before.status !== 'failed' && !refusedAtAccept;
  if (bounced) add('bounced');
  if (failed) add('failed');
  // Its bounce category, once, when it bounced or failed delivering (a delay's category alone is not counted).
  if ((bounced || failed) && isBounceCategory(after.bounce_category)) add(`bounce_${after.bounce_category}`);
  if (Object.keys(counts).length === 0) return null;
  return { day: write.created_at.slice(0, 10), counts };
}

/** The tenant counters one write of a tenant's email moves, or null (not a tenant's email, or nothing reached). */
export function statsDelta(write: EmailStatsWrite): StatsDelta | null {
  if (write.tenant_id === null) return null;
  const delta = countsDelta(write);
  return delta ? { tenantId: write.tenant_id, ...delta } : null;
}

/** The spec's `stats` object over `days` UTC days ending today (from: the first day's 00:00 UTC). */
export function statsView(perDay: readonly StatsCounts[], days: number, from: string) {
  const totals = emptyCounts();
  for (const counts of perDay) for (const field of STATS_FIELDS) totals[field] += counts[field] ?? 0;
  const rate = (n: number) => (totals.sent === 0 ? 0 : Number((n / totals.sent).toFixed(6)));
  const milestones = Object.fromEntries(MILESTONE_FIELDS.map((field) => [field, totals[field]])) as Record<MilestoneField, number>;
  return {
    object: 'tenant_stats' as const,
    days,
    from,
    ...milestones,
    bounce_rate: rate(totals.bounced),
    complaint_rate: rate(totals.complained),
    bounce_categories: bounceCategoryCounts(totals),
  };
}
