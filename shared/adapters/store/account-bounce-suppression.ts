/**
 * Which bounce categories suppress an account's addresses (`suppress_bounce_categories`, docs/deliverability.md),
 * as the SES events worker reads them: the account item's one attribute, kept `cacheMs` per process
 * (HOT_LOOKUPS_CACHE_MS: 1 s by default, 0 on the local cloud), so a storm of one account's bounces reads
 * it once a second at most per worker. A change by PATCH /account applies to bounces within that bound.
 * A missing account (being removed) reads as the defaults.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_SUPPRESS_BOUNCE_CATEGORIES, isBounceCategory, type BounceCategory } from '../../domain/bounces/bounce-category';
import { TtlCache } from '../../lib/ttl-cache';
import { keys } from './keys';
import type { Table } from './table';

export class AccountBounceSuppressionLookup {
  private readonly cache: TtlCache<string, readonly BounceCategory[]>;

  constructor(
    private readonly table: Table,
    cacheMs: number,
  ) {
    this.cache = new TtlCache(cacheMs);
  }

  async categoriesOf(accountId: string): Promise<readonly BounceCategory[]> {
    const cached = this.cache.get(accountId);
    if (cached) return cached;
    const result = await this.table.client.send(
      new GetCommand({ TableName: this.table.name, Key: keys.account(accountId), ProjectionExpression: 'suppress_bounce_categories' }),
    );
    const stored: unknown = result.Item?.suppress_bounce_categories;
    const categories = Array.isArray(stored) ? stored.filter(isBounceCategory) : DEFAULT_SUPPRESS_BOUNCE_CATEGORIES;
    this.cache.set(accountId, categories);
    return categories;
  }
}
