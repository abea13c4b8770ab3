/**
 * The retention of an account as the repositories that write expiring records read it (emails, received
 * emails, webhook deliveries, imports: docs/retention.md): the account item's plan and `retention`, kept
 * RETENTION_CACHE_MS per process, so a busy account's writes read it once a minute at most. A change by
 * PATCH /account applies to records written after it (within that minute); records written before keep
 * their ttl. A missing account (a record written for an account being removed) keeps the free plan's.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { isPlanName } from '../../domain/accounts/plans';
import { effectiveRetention, type Retention, type RetentionKind, type StoredRetention } from '../../domain/accounts/retention';
import { TtlCache } from '../../lib/ttl-cache';
import { keys } from './keys';
import type { Table } from './table';

export const RETENTION_CACHE_MS = 60_000;

/** The days a kind of record of an account is kept. */
export interface RetentionLookup {
  daysFor(accountId: string, kind: RetentionKind): Promise<number>;
}

export class AccountRetentionLookup implements RetentionLookup {
  private readonly cache: TtlCache<string, Retention>;

  constructor(
    private readonly table: Table,
    cacheMs = RETENTION_CACHE_MS,
  ) {
    this.cache = new TtlCache(cacheMs);
  }

  async retentionOf(accountId: string): Promise<Retention> {
    const cached = this.cache.get(accountId);
    if (cached) return cached;
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.account(accountId),
        ProjectionExpression: '#plan, retention',
        ExpressionAttributeNames: { '#plan': 'plan' },
      }),
    );
    const plan = typeof result.Item?.plan === 'string' && isPlanName(result.Item.plan) ? result.Item.plan : 'free';
    const retention = effectiveRetention(plan, result.Item?.retention as StoredRetention | undefined);
    this.cache.set(accountId, retention);
    return retention;
  }

  async daysFor(accountId: string, kind: RetentionKind): Promise<number> {
    return (await this.retentionOf(accountId))[kind];
  }
}

const lookups = new WeakMap<Table, AccountRetentionLookup>();

/** One lookup (one cache) per table object: what a repository uses when none is given. */
export function retentionLookupFor(table: Table): AccountRetentionLookup {
  let lookup = lookups.get(table);
  if (!lookup) {
    lookup = new AccountRetentionLookup(table);
    lookups.set(table, lookup);
  }
  return lookup;
}
