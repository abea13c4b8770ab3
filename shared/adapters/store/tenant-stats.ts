/**
 * Tenant day-stats counters: one item per tenant and UTC day (keys.tenantStats), its fields added to
 * from the table's stream (shared/domain/tenants/stats.ts). One batch's deltas go in one transaction
 * with a ClientRequestToken derived from the batch's records, as the outbox relay counts usage: a
 * retried batch within DynamoDB's 10-minute window changes nothing.
 */
import { emptyCounts, STATS_FIELDS, type StatsCounts, type StatsDelta } from '../../domain/tenants/stats';
import { batchGetItems } from './batch-get';
import { MAX_COUNTERS_PER_TRANSACTION } from './deferred-usage';
import { keys } from './keys';
import { transactWrite, type Table } from './table';

/** Counters are kept 400 days (the stats window is 90). */
const KEEP_SECONDS = 400 * 86_400;

export class TenantStatsRepository {
  readonly maxPerCall: number = MAX_COUNTERS_PER_TRANSACTION;

  constructor(private readonly table: Table) {}

  /** Adds the deltas (distinct tenant-days, at most `maxPerCall`) atomically; idempotent per `token` for 10 minutes. */
  async add(deltas: readonly StatsDelta[], token: string): Promise<void> {
    if (deltas.length === 0) return;
    if (deltas.length > this.maxPerCall) throw new Error(`at most ${this.maxPerCall} tenant-days per call, got ${deltas.length}`);
    const TransactItems = deltas.map(({ tenantId, day, counts }) => {
      const fields = Object.entries(counts).filter(([, n]) => n !== 0) as [string, number][];
      const names = Object.fromEntries(fields.map(([field], i) => [`#f${i}`, field]));
      const values = Object.fromEntries(fields.map(([, n], i) => [`:f${i}`, n]));
      const expiresAt = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + KEEP_SECONDS;
      return {
        Update: {
          TableName: this.table.name,
          Key: keys.tenantStats(tenantId, day),
          UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :f${i}`).join(', ')} SET #ttl = if_not_exists(#ttl, :ttl), #type = :type`,
          ExpressionAttributeNames: { ...names, '#ttl': 'ttl', '#type': 'type' },
          ExpressionAttributeValues: { ...values, ':ttl': expiresAt, ':type': 'tenant_stats' },
        },
      };
    });
    await transactWrite(this.table, TransactItems, token);
  }

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
