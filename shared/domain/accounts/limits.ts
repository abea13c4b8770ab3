/**
 * Which usage counters a send consumes and their limits (plan, and the sandbox sender's own caps).
 * Each recipient (to, cc and bcc) counts as one email, as providers bill. Days and months are UTC.
 * Pure: the store turns these into conditional ADDs in the send's transaction.
 */
import { PLANS, SANDBOX_LIMITS, type PlanName } from './plans';

/**
 * Whose counter: `PLAN` (every send of the account), `SANDBOX` (sends from the sandbox sender), or a
 * tenant's (`TENANT:<id>:transactional|product` for its ramp, `TENANT:<id>:all` for its daily_limit:
 * shared/domain/tenants/limits.ts).
 */
export type UsageScope = 'PLAN' | 'SANDBOX' | `TENANT:${string}`;

export interface UsageReservation {
  scope: UsageScope;
  period: 'DAY' | 'MONTH';
  /** `2026-11-21` or `2026-11`. */
  periodValue: string;
  /** null: counted (for usage and billing) but not capped. */
  limit: number | null;
  /** When the period ends (ISO), for the error message and details.resets_at. */
  resetsAt: string;
  /** Epoch seconds after which the counter item may expire. */
  expiresAt: number;
}

function periods(now: Date) {
  const day = now.toISOString().slice(0, 10);
  const month = day.slice(0, 7);
  const nextDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { day, month, nextDay, nextMonth };
}

export function usageReservations(plan: PlanName, sandbox: boolean, now: Date): UsageReservation[] {
  const { day, month, nextDay, nextMonth } = periods(now);
  const limits = PLANS[plan];
  const keepDay = Math.floor(nextDay.getTime() / 1000) + 35 * 86400;
  const keepMonth = Math.floor(nextMonth.getTime() / 1000) + 400 * 86400;
  const reservations: UsageReservation[] = [
    { scope: 'PLAN', period: 'DAY', periodValue: day, limit: limits.dailyEmails, resetsAt: nextDay.toISOString(), expiresAt: keepDay },
    {
      scope: 'PLAN',
      period: 'MONTH',
      periodValue: month,
      limit: limits.monthlyHardCap ? limits.monthlyEmails : null,
      resetsAt: nextMonth.toISOString(),
      expiresAt: keepMonth,
    },
  ];
  if (sandbox) {
    reservations.push(
      {
        scope: 'SANDBOX',
        period: 'DAY',
        periodValue: day,
        limit: SANDBOX_LIMITS.dailyEmails,
        resetsAt: nextDay.toISOString(),
        expiresAt: keepDay,
      },
      {
        scope: 'SANDBOX',
        period: 'MONTH',
        periodValue: month,
        limit: SANDBOX_LIMITS.monthlyEmails,
        resetsAt: nextMonth.toISOString(),
        expiresAt: keepMonth,
      },
    );
  }
  return reservations;
}

/**
 * Capped counters are sharded so no single item is written by every send of an account: the limit is
 * split into per-shard caps that add up to it exactly (a shard never exceeds its cap, so the total never
 * exceeds the limit). A send takes its places from one shard when it can, or spreads them over several
 * (see planShardParts), so it is refused only when the shards together have no room left.
 */
export const USAGE_SHARDS = 8;

/** Per-shard caps of a limit: USAGE_SHARDS shards (fewer for tiny limits) whose caps sum to `limit`. */
export function shardCaps(limit: number): number[] {
  const shards = Math.max(1, Math.min(USAGE_SHARDS, limit));
  const base = Math.floor(limit / shards);
  const extra = limit - base * shards;
  return Array.from({ length: shards }, (_, shard) => base + (shard < extra ? 1 : 0));
}

export interface ShardPart {
  shard: number;
  n: number;
}

/**
 * Where to take `n` places given each shard's cap and current count: one shard with room for all of them,
 * picked at random (the sends refused at the same moment read the same counts: were they all to pick the
 * roomiest shard, all but its room would be refused again), else greedily over the roomiest shards. null
 * when the shards together lack room.
 */
export function planShardParts(
  caps: readonly number[],
  counts: readonly number[],
  n: number,
  random: () => number = Math.random,
): ShardPart[] | null {
  const room = caps.map((cap, shard) => ({ shard, free: Math.max(0, cap - (counts[shard] ?? 0)) })).sort((a, b) => b.free - a.free);
  if (room.reduce((sum, r) => sum + r.free, 0) < n) return null;
  const whole = room.filter((r) => r.free >= n);
  if (whole.length > 0) return [{ shard: whole[Math.floor(random() * whole.length)]!.shard, n }];
  const parts: ShardPart[] = [];
  let left = n;
  for (const { shard, free } of room) {
    if (left === 0) break;
    const take = Math.min(free, left);
    if (take > 0) parts.push({ shard, n: take });
    left -= take;
  }
  return parts;
}

/**
 * A first guess that needs no read: all places from one shard picked at random (spreads the writes) when
 * its cap can hold them, else spread as if the shards were empty (a send larger than one shard's cap).
 * Never a part larger than its shard's cap: a shard item that does not exist yet takes any ADD its
 * condition lets through, so the plan itself must respect the cap. null when the limit itself is smaller
 * than `n` (refused whatever the counts).
 */
export function firstShardPlan(caps: readonly number[], n: number, random: () => number = Math.random): ShardPart[] | null {
  const shard = Math.floor(random() * caps.length);
  if (n <= caps[shard]!) return [{ shard, n }];
  return planShardParts(
    caps,
    caps.map(() => 0),
    n,
  );
}
