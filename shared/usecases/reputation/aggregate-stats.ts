/**
 * Day stats from the table's stream: each write of an email (its acceptance, or a later write with the email
 * before and after it: shared/adapters/store/email-stats-changes.ts) moves the counters of its acceptance day
 * (shared/domain/reputation/counters.ts): its tenant's, and its account's and the deployment's when it moved
 * sent, bounced or complained. Records are taken in stream order in groups touching at most `maxPerCall`
 * counters, each group written in one idempotent transaction (token from its records), so a failed group
 * ends the done prefix and the retry starts at its first record: a record is counted once (at-least-once
 * only after a retry later than 10 minutes, or a stream replay).
 *
 * Then the checks, on what the batch counted: tenants whose bounces or complaints were counted get the
 * tenants' automatic pause (shared/usecases/tenants/auto-pause-tenants.ts), and those tenants and accounts
 * the reputation brake (./apply-brake.ts).
 */
import type { EmailStatsWrite } from '../../domain/tenants/stats';
import { counterDeltas, counterId, mergeCounterDeltas, type CounterDelta } from '../../domain/reputation/counters';
import type { StreamRecordChanges } from '../../adapters/store/stream-record';
import type { AccountStatsRepository } from '../../adapters/store/account-stats';
import { autoPauseTenants, type AutoPauseDeps } from '../tenants/auto-pause-tenants';
import { applyReputationBrake, type BrakeCandidates, type BrakeDeps, type BrakeOutcome } from './apply-brake';
import { usageToken } from '../../lib/request-token';

/** One stream record's changes, in stream order. */
export type StatsRecord = Pick<StreamRecordChanges<EmailStatsWrite>, 'eventId' | 'changes'>;

export interface AggregateStatsDeps {
  counters: Pick<AccountStatsRepository, 'add' | 'maxPerCall'>;
  /** When given, tenants whose bounces or complaints were counted are checked for an automatic pause. */
  autoPause?: AutoPauseDeps & { clock: { now(): Date }; log(message: string, error: unknown): void };
  /** When given, the accounts and tenants whose bounces or complaints were counted go through the reputation brake. */
  brake?: BrakeDeps & { clock: { now(): Date }; log(message: string, error: unknown): void };
}

export interface AggregateStatsResult {
  /** Leading records done (all of them when nothing failed). */
  done: number;
  /** Counter items written. */
  written: number;
  /** Tenants the tenants' automatic pause paused after this batch. */
  paused?: string[];
  /** What the reputation brake paused after this batch. */
  braked?: BrakeOutcome[];
  failure?: string;
}

/** Records whose counter deltas are written in one call (at most `maxPerCall` counters), from record `first` on. */
interface CounterGroup {
  first: number;
  eventIds: string[];
  deltas: CounterDelta[];
  counters: Set<string>;
}

/** The records' deltas in groups of at most `maxPerCall` counters, in order; and which account each tenant counted belongs to. */
function groupDeltas(
  records: readonly StatsRecord[],
  maxPerCall: number,
): { groups: CounterGroup[]; accountOfTenant: Map<string, string> } {
  const groups: CounterGroup[] = [];
  const accountOfTenant = new Map<string, string>();
  records.forEach((record, index) => {
    const deltas = record.changes.flatMap((change) => {
      if (change.tenant_id !== null) accountOfTenant.set(change.tenant_id, change.account_id);
      return counterDeltas(change);
    });
    if (deltas.length === 0) return;
    const ids = deltas.map((delta) => counterId(delta.counter, delta.day));
    let group = groups[groups.length - 1];
    const added = new Set(ids.filter((id) => !group?.counters.has(id))).size;
    if (!group || (added > 0 && group.counters.size + added > maxPerCall)) {
      group = { first: index, eventIds: [], deltas: [], counters: new Set() };
      groups.push(group);
    }
    group.eventIds.push(record.eventId);
    group.deltas.push(...deltas);
    for (const id of ids) group.counters.add(id);
  });
  return { groups, accountOfTenant };
}

/** Adds the accounts and tenants whose counters just counted a bounce or complaint (each once) to `reputation`. */
function noteReputationChanges(
  merged: ReturnType<typeof mergeCounterDeltas>,
  accountOfTenant: Map<string, string>,
  reputation: BrakeCandidates,
  seen: Set<string>,
): void {
  for (const { counter, counts } of merged) {
    if (!counts.bounced && !counts.complained) continue;
    if (counter.kind === 'account' && !seen.has(`a:${counter.accountId}`)) {
      seen.add(`a:${counter.accountId}`);
      reputation.accounts.push(counter.accountId);
    } else if (counter.kind === 'tenant' && !seen.has(`t:${counter.tenantId}`)) {
      seen.add(`t:${counter.tenantId}`);
      reputation.tenants.push({ id: counter.tenantId, accountId: accountOfTenant.get(counter.tenantId)! });
    }
  }
}

/**
 * The automatic tenant pause and the reputation brake on who counted a bounce or complaint. The counters
 * are written whatever happens here: a failed check is logged, and the next bounce or complaint of that
 * tenant or account checks again.
 */
async function checkReputation(deps: AggregateStatsDeps, reputation: BrakeCandidates, result: AggregateStatsResult): Promise<void> {
  if (deps.autoPause && reputation.tenants.length > 0) {
    try {
      const paused = await autoPauseTenants(
        deps.autoPause,
        reputation.tenants.map((tenant) => tenant.id),
        deps.autoPause.clock.now(),
      );
      if (paused.length) result.paused = paused;
    } catch (error) {
      deps.autoPause.log('stats: automatic tenant pause check failed', error);
    }
  }
  if (deps.brake && (reputation.accounts.length > 0 || reputation.tenants.length > 0)) {
    try {
      const braked = await applyReputationBrake(deps.brake, reputation, deps.brake.clock.now());
      if (braked.length) result.braked = braked;
    } catch (error) {
      deps.brake.log('stats: reputation brake check failed', error);
    }
  }
}

export async function aggregateStats(deps: AggregateStatsDeps, records: readonly StatsRecord[]): Promise<AggregateStatsResult> {
  const { groups, accountOfTenant } = groupDeltas(records, deps.counters.maxPerCall);
  let written = 0;
  const reputation: BrakeCandidates = { accounts: [], tenants: [] };
  const seen = new Set<string>();
  let result: AggregateStatsResult | undefined;
  for (const group of groups) {
    try {
      const merged = mergeCounterDeltas(group.deltas);
      await deps.counters.add(merged, usageToken('stats', group.eventIds));
      written += merged.length;
      noteReputationChanges(merged, accountOfTenant, reputation, seen);
    } catch (error) {
      result = { done: group.first, written, failure: `stats update failed: ${(error as Error).message}` };
      break;
    }
  }
  result ??= { done: records.length, written };
  await checkReputation(deps, reputation, result);
  return result;
}
