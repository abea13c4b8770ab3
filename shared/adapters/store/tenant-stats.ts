/**
 * Tenant day-stats counters: one item per tenant and UTC day (keys.tenantStats), its fields added to
 * from the table's stream (shared/domain/tenants/stats.ts) by the stats worker, in one transaction with the
 * accounts' and the deployment's counters (./account-stats.ts). Here: reading them.
 */
import { emptyCounts, STATS_FIELDS, type StatsCounts } from '../../domain/tenants/stats';
import { batchGetItems } from './batch-get';
import { keys } from './keys';
import type { Table } from './table';

export class TenantStatsRepository {
  constructor(private readonly table: Table) {}

  /** The counters of each day (in the order asked; zeros for days without an item): one batch read. */
  async read(tenantId: string, days: readonly string[]): Promise<StatsCounts[]> {
    const items = await batchGetItems(
      this.table,
      days.map((day) => keys.tenantStats(tenantId, day)),
    );
    const byPk = new Map(items.map((item) => [item.PK as string, item]));
    return days.map((day) => {
      const item = byPk.get(keys.tenantStats(tenantId, day).PK);
      const counts = emptyCounts();
      if (item) for (const field of STATS_FIELDS) counts[field] = Number(item[field] ?? 0);
      return counts;
    });
  }
}
