/**
 * Tenant day stats from the table's stream: each write of a tenant's email (its acceptance, or a later
 * write with the email before and after it: shared/adapters/store/tenant-email-changes.ts) moves the counters of
 * its acceptance day (shared/domain/tenants/stats.ts). Records are taken in stream order in groups touching
 * at most `maxPerCall` tenant-days, each group written in one idempotent transaction (token from its
 * records), so a failed group ends the done prefix and the retry starts at its first record: a record
 * is counted once (at-least-once only after a retry later than 10 minutes, or a stream replay).
 */
import { mergeDeltas, statsDelta, type StatsDelta, type TenantEmailWrite } from '../../domain/tenants/stats';
import type { StreamRecordChanges } from '../../adapters/store/stream-record';
import type { TenantStatsRepository } from '../../adapters/store/tenant-stats';
import { autoPauseTenants, type AutoPauseDeps } from './auto-pause-tenants';
import { usageToken } from '../../lib/request-token';

/** One stream record's changes, in stream order. */
export type StatsRecord = Pick<StreamRecordChanges<TenantEmailWrite>, 'eventId' | 'changes'>;

export interface AggregateStatsDeps {
  stats: Pick<TenantStatsRepository, 'add' | 'maxPerCall'>;
  /** When given, tenants whose bounces or complaints were counted are checked for an automatic pause. */
  autoPause?: AutoPauseDeps & { clock: { now(): Date }; log(message: string, error: unknown): void };
}

export interface AggregateStatsResult {
  /** Leading records done (all of them when nothing failed). */
  done: number;
  /** Tenant-day counter items written. */
  written: number;
  /** Tenants the service paused after this batch. */
  paused?: string[];
  failure?: string;
}

export async function aggregateTenantStats(deps: AggregateStatsDeps, records: readonly StatsRecord[]): Promise<AggregateStatsResult> {
  const groups: { first: number; eventIds: string[]; deltas: StatsDelta[]; days: Set<string> }[] = [];
  records.forEach((record, index) => {
    const deltas = record.changes.flatMap((change) => statsDelta(change) ?? []);
    if (deltas.length === 0) return;
    const days = deltas.map((delta) => `${delta.tenantId}\u0000${delta.day}`);
    let group = groups[groups.length - 1];
    const added = new Set(days.filter((id) => !group?.days.has(id))).size;
    if (!group || (added > 0 && group.days.size + added > deps.stats.maxPerCall)) {
      group = { first: index, eventIds: [], deltas: [], days: new Set() };
      groups.push(group);
    }
    group.eventIds.push(record.eventId);
    group.deltas.push(...deltas);
    for (const id of days) group.days.add(id);
  });
  let written = 0;
  const reputation = new Set<string>();
  let result: AggregateStatsResult | undefined;
  for (const group of groups) {
    try {
      const merged = mergeDeltas(group.deltas);
      await deps.stats.add(merged, usageToken('tenant-stats', group.eventIds));
      written += merged.length;
      for (const delta of merged) if (delta.counts.bounced || delta.counts.complained) reputation.add(delta.tenantId);
    } catch (error) {
      result = { done: group.first, written, failure: `tenant stats update failed: ${(error as Error).message}` };
      break;
    }
  }
  result ??= { done: records.length, written };
  // The counters are written whatever happens here: a failed check is logged, and the next bounce or
  // complaint of that tenant checks again.
  if (deps.autoPause && reputation.size > 0) {
    try {
      result.paused = await autoPauseTenants(deps.autoPause, [...reputation], deps.autoPause.clock.now());
    } catch (error) {
      deps.autoPause.log('tenant-stats: automatic pause check failed', error);
    }
  }
  return result;
}
