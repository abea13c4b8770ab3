/**
 * Reads the due index (shared/store/due-index.ts): the keys of unfinished work whose due time has
 * passed, shard by shard (keys only; the reconciler reads each item consistently before acting).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DUE_INDEX, DUE_KINDS, DUE_SHARDS, dueBefore, duePartition, type DueKind } from './due-index';
import type { Table } from './table';

export interface DueEntry {
  kind: DueKind;
  /** Email id, `<webhook id>#<event ulid>` for a delivery, a run id, or a domain id. */
  id: string;
  dueAt: string;
}

/** `<ISO>#<kind>#<id>` -> entry; null for a key of another shape. */
export function parseDueKey(sortKey: string): DueEntry | null {
  const first = sortKey.indexOf('#');
  const second = sortKey.indexOf('#', first + 1);
  if (first < 0 || second < 0) return null;
  const kind = sortKey.slice(first + 1, second) as DueKind;
  if (!DUE_KINDS.includes(kind)) return null;
  return { kind, id: sortKey.slice(second + 1), dueAt: sortKey.slice(0, first) };
}

/** Sort keys (`<due ISO>#...`) of one index partition due before `now`, oldest first, at most `limit`. */
export async function pastDueSortKeys(table: Table, partition: string, now: number, limit: number): Promise<string[]> {
  const page = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: DUE_INDEX,
      KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :before',
      ExpressionAttributeValues: { ':pk': partition, ':before': dueBefore(now) },
      Limit: limit,
    }),
  );
  return (page.Items ?? []).flatMap((item) => (typeof item.GSI2SK === 'string' ? [item.GSI2SK] : []));
}

export class DueWorkIndex {
  constructor(private readonly table: Table) {}

  /** Up to `perShard` past-due entries of each shard, oldest first within a shard (the shards are read 8 at a time). */
  async pastDue(now: number, perShard: number): Promise<DueEntry[]> {
    const shards = Array.from({ length: DUE_SHARDS }, (_, shard) => shard);
    const found: DueEntry[] = [];
    for (let start = 0; start < shards.length; start += 8) {
      const pages = await Promise.all(shards.slice(start, start + 8).map((shard) => pastDueSortKeys(this.table, duePartition(shard), now, perShard)));
      for (const sortKeys of pages) {
        for (const sortKey of sortKeys) {
          const entry = parseDueKey(sortKey);
          if (entry) found.push(entry);
        }
      }
    }
    return found;
  }
}
