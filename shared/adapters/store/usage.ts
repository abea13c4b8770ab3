/**
 * Usage counters. Capped ones (free plan, sandbox sender) are sharded items reserved inside the send's
 * transaction with conditional ADDs (each shard below its own cap; the caps add up to the limit), so N
 * concurrent sends at the edge of a limit never overshoot it and no item is written by every send.
 * Uncapped ones (paid plans) are not written on the request path at all: the email item carries
 * `usage_deferred` and the outbox relay adds it, once per counter per batch of the table's stream, to one of
 * the counter's DEFERRED_USAGE_SHARDS items (./deferred-usage.ts).
 */
import * as z from 'zod';
import { shardCaps, type ShardPart, type UsageReservation, type UsageScope } from '../../domain/accounts/limits';
import { modelSchema } from '../../domain/model-schema';
import { batchGetItems } from './batch-get';
import { DEFERRED_USAGE_SHARDS } from './deferred-usage';
import { keys } from './keys';
import type { Table, TransactItem } from './table';

/** Which counter a reservation went to, and (for sharded counters) how many places from which shard. */
export interface ReservedCounter {
  scope: UsageScope;
  period: 'DAY' | 'MONTH';
  periodValue: string;
  /** Sharded (capped) counters: the places taken per shard. Absent: the unsharded counter. */
  parts?: ShardPart[];
}

/** A ReservedCounter as an email item keeps it (`usage_reserved.entries`). */
export const reservedCounterSchema = modelSchema<ReservedCounter>()(
  z.object({
    scope: z.union([z.literal('PLAN'), z.literal('SANDBOX'), z.templateLiteral(['TENANT:', z.string()])]),
    period: z.enum(['DAY', 'MONTH']),
    periodValue: z.string(),
    parts: z.array(z.object({ shard: z.number(), n: z.number() })).optional(),
  }),
);

/**
 * Whether `key` is one of the account's uncapped usage counters, where they are now (`keys.usage`: their own
 * partitions) or were (`keys.legacyUsage`: emails accepted before 2026-11-25 name those): the outbox relay adds
 * only to these, whatever an email item says (it may write to any item of the table).
 */
export function isUncappedUsageKey(accountId: string, key: { PK: string; SK: string }): boolean {
  const current =
    key.SK === keys.usage(accountId, 'PLAN', 'DAY', '').SK &&
    key.PK.startsWith(`USAGE#${accountId}#`) &&
    !key.PK.slice(`USAGE#${accountId}#`.length).includes('\u0000');
  const legacy = key.PK === keys.account(accountId).PK && key.SK.startsWith('USAGE#');
  return current || legacy;
}

/** What an accepted email asks the outbox relay to count (uncapped counters). */
export interface DeferredUsage {
  account_id: string;
  count: number;
  entries: { key: { PK: string; SK: string }; expiresAt: number }[];
}

export function deferredUsage(accountId: string, reservations: readonly UsageReservation[], count: number): DeferredUsage | null {
  if (reservations.length === 0) return null;
  return {
    account_id: accountId,
    count,
    entries: reservations.map((r) => ({ key: keys.usage(accountId, r.scope, r.period, r.periodValue), expiresAt: r.expiresAt })),
  };
}

const shardKey = (accountId: string, counter: Pick<ReservedCounter, 'scope' | 'period' | 'periodValue'>, shard: number) =>
  keys.usageShard(accountId, counter.scope, counter.period, counter.periodValue, shard);

/** The conditional ADDs that take `parts` of a capped reservation (one item per shard part). */
export function reserveShardItems(
  table: Table,
  accountId: string,
  reservation: UsageReservation,
  parts: readonly ShardPart[],
): TransactItem[] {
  const caps = shardCaps(reservation.limit!);
  return parts.map(({ shard, n }) => {
    // The condition holds for an item that does not exist yet whatever `n` is: a part larger than its cap
    // would overshoot on the first send of the period, so plans never make one (firstShardPlan, planShardParts).
    if (!(n > 0 && n <= caps[shard]!)) throw new Error(`usage shard ${shard} cannot take ${n} (cap ${caps[shard]})`);
    return {
      Update: {
        TableName: table.name,
        Key: shardKey(accountId, reservation, shard),
        UpdateExpression: 'ADD #count :n SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :max',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':n': n, ':ttl': reservation.expiresAt, ':max': caps[shard]! - n },
      },
    };
  });
}

/** Each shard's count, read strongly consistent (only after a reservation was refused, to plan the next try). */
export async function readShardCounts(table: Table, accountId: string, reservation: UsageReservation): Promise<number[]> {
  const caps = shardCaps(reservation.limit!);
  const shardKeys = caps.map((_, shard) => shardKey(accountId, reservation, shard));
  const items = await batchGetItems(table, shardKeys, { consistentRead: true, projection: ['PK', 'count'] });
  const byPk = new Map(items.map((item) => [item.PK as string, Number(item.count ?? 0)]));
  return shardKeys.map((key) => byPk.get(key.PK) ?? 0);
}

/** Gives places back (a cancelled scheduled send: EmailRepository.cancelScheduled). */
export function releaseItems(table: Table, accountId: string, counters: readonly ReservedCounter[], count: number): TransactItem[] {
  return counters.flatMap((counter) =>
    (counter.parts ?? [{ shard: -1, n: count }]).map(({ shard, n }) => ({
      Update: {
        TableName: table.name,
        Key: shard < 0 ? keys.usage(accountId, counter.scope, counter.period, counter.periodValue) : shardKey(accountId, counter, shard),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -n },
      },
    })),
  );
}

/** The usage counters of one table, as reports and tests read them. */
export class UsageLedger {
  constructor(private readonly table: Table) {}

  /** Each shard's count of a capped counter, read strongly consistent (the send's early refusal: shared/usecases/send/send-limits.ts). */
  shardCounts(accountId: string, reservation: UsageReservation): Promise<number[]> {
    return readShardCounts(this.table, accountId, reservation);
  }

  /**
   * Current usage of a counter: its capped shards, the unsharded item and the outbox relay's shards of it, and
   * the unsharded item where it was kept before 2026-11-25 (the account's partition). For reports, the tenant
   * ramp (once per tenant and day) and tests.
   */
  async current(accountId: string, reservation: Pick<UsageReservation, 'scope' | 'period' | 'periodValue' | 'limit'>): Promise<number> {
    const sharded =
      reservation.limit === null ? [] : shardCaps(reservation.limit).map((_, shard) => shardKey(accountId, reservation, shard));
    const unsharded = [keys.usage, keys.legacyUsage].map((key) =>
      key(accountId, reservation.scope, reservation.period, reservation.periodValue),
    );
    const relayed = Array.from({ length: DEFERRED_USAGE_SHARDS }, (_, shard) =>
      keys.usageDeferredShard(accountId, reservation.scope, reservation.period, reservation.periodValue, shard),
    );
    const items = await batchGetItems(this.table, [...unsharded, ...relayed, ...sharded], { consistentRead: true });
    return items.reduce((sum, item) => sum + Number(item.count ?? 0), 0);
  }
}
