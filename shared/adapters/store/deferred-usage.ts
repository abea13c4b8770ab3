/**
 * The uncapped usage counters the outbox relay adds to (`usage_deferred` of accepted emails, see
 * usage.ts). One batch's increments go in one transaction, one Update per distinct counter, with a
 * ClientRequestToken derived from the batch's records: the same records applied again within
 * DynamoDB's 10-minute idempotency window (a retried invocation) change nothing.
 */
import { transactWrite, type Table } from './table';

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
    const TransactItems = increments.map(({ counter, count, expiresAt }) => ({
      Update: {
        TableName: this.table.name,
        Key: usageCounterKey(counter),
        UpdateExpression: 'ADD #count :n SET #ttl = if_not_exists(#ttl, :ttl)',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':n': count, ':ttl': expiresAt },
      },
    }));
    await transactWrite(this.table, TransactItems, token);
  }
}
