/**
 * The day counters one write of an email moves (shared/domain/tenants/stats.ts says which milestones it
 * reached): its tenant's (every field, when it is a tenant's email), and, when it moved sent, bounced or
 * complained, its account's and the deployment's. An account's counters also keep the part of them its
 * tenants sent (`tenant_sent`, ...), so the brake can judge an account on its emails of no tenant, and its
 * emails by bounce category (`bounce_<category>`: the health check's blocks). All by
 * the day the email was accepted. Pure.
 */
import { BOUNCE_CATEGORY_FIELDS, countsDelta, type EmailStatsWrite } from '../tenants/stats';

export type StatsCounter = { kind: 'tenant'; tenantId: string } | { kind: 'account'; accountId: string } | { kind: 'deployment' };

export const REPUTATION_FIELDS = ['sent', 'bounced', 'complained'] as const;
export const ACCOUNT_STATS_FIELDS = [...REPUTATION_FIELDS, 'tenant_sent', 'tenant_bounced', 'tenant_complained'] as const;
/** An account's counters also count its emails by bounce category (all of them, tenants' included): the health check's blocks. */
export const ACCOUNT_COUNTER_FIELDS: readonly string[] = [...ACCOUNT_STATS_FIELDS, ...BOUNCE_CATEGORY_FIELDS];

export interface CounterDelta {
  counter: StatsCounter;
  day: string;
  /** Field -> how much to add (never 0). */
  counts: Record<string, number>;
}

/** One counter item of one day: the unit a transaction writes once. */
export function counterId(counter: StatsCounter, day: string): string {
  const id = counter.kind === 'tenant' ? counter.tenantId : counter.kind === 'account' ? counter.accountId : '';
  return `${counter.kind}\u0000${id}\u0000${day}`;
}

/** The counters one write moves (empty: none). */
export function counterDeltas(write: EmailStatsWrite): CounterDelta[] {
  const delta = countsDelta(write);
  if (!delta) return [];
  const { day, counts } = delta;
  const deltas: CounterDelta[] = [];
  if (write.tenant_id !== null)
    deltas.push({ counter: { kind: 'tenant', tenantId: write.tenant_id }, day, counts: { ...counts } as Record<string, number> });
  const reputation: Record<string, number> = {};
  for (const field of REPUTATION_FIELDS) if (counts[field]) reputation[field] = counts[field]!;
  const categories: Record<string, number> = {};
  for (const field of BOUNCE_CATEGORY_FIELDS) if (counts[field]) categories[field] = counts[field]!;
  if (Object.keys(reputation).length === 0 && Object.keys(categories).length === 0) return deltas;
  const tenantPart =
    write.tenant_id === null ? {} : Object.fromEntries(Object.entries(reputation).map(([field, n]) => [`tenant_${field}`, n]));
  deltas.push({ counter: { kind: 'account', accountId: write.account_id }, day, counts: { ...reputation, ...tenantPart, ...categories } });
  if (Object.keys(reputation).length > 0) deltas.push({ counter: { kind: 'deployment' }, day, counts: { ...reputation } });
  return deltas;
}

/** Sums deltas per counter and day: one write each. */
export function mergeCounterDeltas(deltas: readonly CounterDelta[]): CounterDelta[] {
  const merged = new Map<string, CounterDelta>();
  for (const delta of deltas) {
    const id = counterId(delta.counter, delta.day);
    const current = merged.get(id) ?? { counter: delta.counter, day: delta.day, counts: {} };
    for (const [field, n] of Object.entries(delta.counts)) current.counts[field] = (current.counts[field] ?? 0) + n;
    merged.set(id, current);
  }
  return [...merged.values()];
}
