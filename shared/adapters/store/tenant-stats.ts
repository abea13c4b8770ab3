/**
 * Tenant day-stats counters: DAY_STATS_SHARDS items per tenant and UTC day (keys.tenantStatsShard, summed with the
 * unsharded keys.tenantStats of before 2026-11-26), their fields added to
 * from the table's stream (shared/domain/tenants/stats.ts) by the stats worker, in one transaction with the
 * accounts' and the deployment's counters (./account-stats.ts). Here: reading them.
 */
import { emptyCounts, STATS_FIELDS, type StatsCounts } from '../../domain/tenants/stats';
import { dayStatsKeys, summedItem } from './account-stats';
import { batchGetItems } from './batch-get';
import { keys } from './keys';
import type { Table } from './table';

export class TenantStatsRepository {
  constructor(private readonly table: Table) {}

  /** The counters of each day (in the order asked; zeros for days without an item): one batch read of 9 items a day. */
  async read(tenantId: string, days: readonly string[]): Promise<StatsCounts[]> {
    const keysOf = (day: string) => dayStatsKeys(keys.tenantStats(tenantId, day), (shard) => keys.tenantStatsShard(tenantId, day, shard));
    const items = await batchGetItems(this.table, days.flatMap(keysOf), { projection: ['PK', ...STATS_FIELDS] });
    const byPk = new Map(items.map((item) => [item.PK as string, item]));
    return days.map((day) => {
      const item = summedItem(byPk, keysOf(day));
      const counts = emptyCounts();
      if (item) for (const field of STATS_FIELDS) counts[field] = Number(item[field] ?? 0);
      return counts;
    });
  }
}
