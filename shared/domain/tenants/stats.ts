/**
 * Per-tenant daily stats, kept as counters (never computed by scanning emails): one counter item per
 * tenant and UTC day of acceptance, whose fields are added to from the table's stream. Each stream record
 * of a tenant's email says which milestones its write reached (by comparing the old and new images), so
 * a stats call reads at most one item per day however many emails the tenant sent.
 *
 * Counted per email (not per recipient), by the day the email was accepted: "day D" is the emails
 * accepted on D and what has happened to them since, so its rates are well defined.
 */
export const STATS_FIELDS = ['total', 'queued', 'scheduled', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'opened', 'clicked'] as const;
export type StatsField = (typeof STATS_FIELDS)[number];
export type StatsCounts = Record<StatsField, number>;

export function emptyCounts(): StatsCounts {
  return Object.fromEntries(STATS_FIELDS.map((field) => [field, 0])) as StatsCounts;
}

/** The email fields a stream image offers (absent ones are undefined). */
export interface EmailImage {
  type?: unknown;
  tenant_id?: unknown;
  created_at?: unknown;
  status?: unknown;
  last_event?: unknown;
  sent_at?: unknown;
  delivered_at?: unknown;
  bounced_at?: unknown;
  suppressed_event?: unknown;
  opened_at?: unknown;
  clicked_at?: unknown;
}

export interface StatsDelta {
  tenantId: string;
  day: string;
  counts: Partial<StatsCounts>;
}

const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * The counters one write of a tenant's email moves, or null (not a tenant email, or nothing reached).
 * An INSERT counts the acceptance (total, and queued, scheduled or suppressed); a MODIFY counts each
 * milestone its new image has and its old one had not.
 */
export function statsDelta(eventName: 'INSERT' | 'MODIFY' | 'REMOVE', newImage: EmailImage | undefined, oldImage: EmailImage | undefined): StatsDelta | null {
  if (!newImage || newImage.type !== 'email' || typeof newImage.tenant_id !== 'string' || typeof newImage.created_at !== 'string') return null;
  const counts: Partial<StatsCounts> = {};
  const add = (field: StatsField) => (counts[field] = (counts[field] ?? 0) + 1);
  const before: EmailImage = eventName === 'INSERT' ? {} : (oldImage ?? {});
  if (eventName === 'INSERT') {
    add('total');
    if (newImage.status === 'queued') add('queued');
    else if (newImage.status === 'scheduled') add('scheduled');
    else if (newImage.status === 'failed' && isSet(newImage.suppressed_event)) add('suppressed');
  } else if (eventName !== 'MODIFY' || !oldImage) {
    return null;
  }
  const reached = (field: keyof EmailImage) => isSet(newImage[field]) && !isSet(before[field]);
  if (reached('sent_at')) add('sent');
  if (reached('delivered_at')) add('delivered');
  if (reached('opened_at')) add('opened');
  if (reached('clicked_at')) add('clicked');
  if (newImage.last_event === 'complained' && before.last_event !== 'complained') add('complained');
  const refusedAtAccept = eventName === 'INSERT' && newImage.status === 'failed';
  if (newImage.status === 'bounced' && before.status !== 'bounced') add('bounced');
  if (newImage.status === 'failed' && before.status !== 'failed' && !refusedAtAccept) add('failed');
  if (Object.keys(counts).length === 0) return null;
  return { tenantId: newImage.tenant_id, day: newImage.created_at.slice(0, 10), counts };
}

/** Sums deltas per (tenant, day): one counter write each. */
export function mergeDeltas(deltas: readonly StatsDelta[]): StatsDelta[] {
  const merged = new Map<string, StatsDelta>();
  for (const delta of deltas) {
    const id = `${delta.tenantId}\u0000${delta.day}`;
    const current = merged.get(id) ?? { tenantId: delta.tenantId, day: delta.day, counts: {} };
    for (const [field, n] of Object.entries(delta.counts) as [StatsField, number][]) current.counts[field] = (current.counts[field] ?? 0) + n;
    merged.set(id, current);
  }
  return [...merged.values()];
}

/** The spec's `stats` object over `days` UTC days ending today (from: the first day's 00:00 UTC). */
export function statsView(perDay: readonly StatsCounts[], days: number, from: string) {
  const totals = emptyCounts();
  for (const counts of perDay) for (const field of STATS_FIELDS) totals[field] += counts[field] ?? 0;
  const rate = (n: number) => (totals.sent === 0 ? 0 : Number((n / totals.sent).toFixed(6)));
  return { object: 'tenant_stats' as const, days, from, ...totals, bounce_rate: rate(totals.bounced), complaint_rate: rate(totals.complained) };
}
