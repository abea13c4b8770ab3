/**
 * The uncapped usage counters the outbox relay adds to (`usage_deferred` of accepted emails, see
 * usage.ts). One batch's increments go in one transaction, one Update per distinct counter, with a
 * ClientRequestToken derived from the batch's records: the same records applied again within
 * DynamoDB's 10-minute idempotency window (a retried invocation) change nothing.
 *
 * Each counter is kept in DEFERRED_USAGE_SHARDS items (`keys.usageDeferredShard`) and a batch adds to one of
 * them, picked by its token (so a retried batch is the same transaction): on AWS a table's stream has about a
 * shard per partition, each delivering its own batches, and one item per counter would take every batch of an
 * account. An item takes 1,000 write units a second and a transaction's update 2, so one counter takes about
 * 500 x 32 = 16,000 relay batches a second holding the account's records, whatever the stream's shard count.
 * Readers sum the shards with the unsharded item (UsageLedger.current).
 */
import { tokenShard } from '../../lib/request-token';
import { transactWrite, type Table } from './table';

/** The items one uncapped counter is kept in (the unsharded item besides). */
export const DEFERRED_USAGE_SHARDS = 32;

export interface UsageIncrement {
  /** Which counter: an id only the store reads (the same counter, the same id). */
  counter: string;
  count: number;
  /** Epoch seconds: the counter's TTL, set by the first write. */
  expiresAt: number;
}

/** The id of the counter at `key` (PK and SK never hold a NUL). */
export function usageCounterId(key: { PK: string; SK: string }): string {
  return `${key.PK}\u0000${key.SK}`;
}

function usageCounterKey(counter: string): { PK: string; SK: string } {
  const [PK = '', SK = ''] = counter.split('\u0000');
  return { PK, SK };
}

/** The shard a batch with this token adds to: the same token, the same shard. */
export function deferredShardOf(token: string): number {
  return tokenShard(token, DEFERRED_USAGE_SHARDS);
}

/**
 * Where an increment of `counter` goes for shard `shard`: its shard item for a counter of today's layout
 * (`USAGE#...`, SK COUNTER: keys.usageDeferredShard), the counter itself for one kept under the account's
 * partition before 2026-11-25 (emails accepted then name those).
 */
export function deferredShardKey(counter: string, shard: number): { PK: string; SK: string } {
  const key = usageCounterKey(counter);
  return key.PK.startsWith('USAGE#') && key.SK === 'COUNTER' ? { PK: `${key.PK}#D${shard}`, SK: key.SK } : key;
}

/** TransactWriteItems takes at most 100 actions. */
export const MAX_COUNTERS_PER_TRANSACTION = 100;

export class DeferredUsageCounters {
  readonly maxPerCall = MAX_COUNTERS_PER_TRANSACTION;

  constructor(private readonly table: Table) {}

  /**
   * Adds every increment (distinct keys, at most `maxPerCall`) atomically. `token` (at most 36
   * characters) makes the call idempotent for 10 minutes. Retried with the same token when only a
   * concurrent transaction on the same counters cancelled it.
   */
  async add(increments: readonly UsageIncrement[], token: string): Promise<void> {
    if (increments.length === 0) return;
    if (increments.length > this.maxPerCall) throw new Error(`at most ${this.maxPerCall} counters per call, got ${increments.length}`);
    const shard = deferredShardOf(token);
    const TransactItems = increments.map(({ counter, count, expiresAt }) => ({
      Update: {
        TableName: this.table.name,
        Key: deferredShardKey(counter, shard),
        UpdateExpression: 'ADD #count :n SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':n': count, ':ttl': expiresAt },
      },
    }));
    await transactWrite(this.table, TransactItems, token);
  }
}
