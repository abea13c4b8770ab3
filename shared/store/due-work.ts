/**
 * Reads the due index (shared/store/due-index.ts): the keys of unfinished work whose due time has
 * passed, shard by shard (keys only; the reconciler reads each item consistently before acting).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DUE_INDEX, DUE_SHARDS, dueBefore, duePartition, type DueKind } from './due-index';
import type { Table } from './table';

export interface DueEntry {
  kind: DueKind;
  /** Email id, `<webhook id>#<event ulid>` for a delivery, or a run id. */
  id: string;
  dueAt: string;
}

/** `<ISO>#<kind>#<id>` -> entry; null for a key of another shape. */
export function parseDueKey(sortKey: string): DueEntry | null {
  const first = sortKey.indexOf('#');
  const second = sortKey.indexOf('#', first + 1);
  if (first < 0 || second < 0) return null;
  const kind = sortKey.slice(first + 1, second);
  if (kind !== 'EMAIL' && kind !== 'DELIVERY' && kind !== 'RUN') return null;
  return { kind, id: sortKey.slice(second + 1), dueAt: sortKey.slice(0, first) };
}

export class DueWorkIndex {
  constructor(private readonly table: Table) {}

  /** Up to `perShard` past-due entries of each shard, oldest first within a shard (the shards are read 8 at a time). */
  async pastDue(now: number, perShard: number): Promise<DueEntry[]> {
    const shards = Array.from({ length: DUE_SHARDS }, (_, shard) => shard);
    const found: DueEntry[] = [];
    for (let start = 0; start < shards.length; start += 8) {
      const pages = await Promise.all(
        shards.slice(start, start + 8).map((shard) =>
          this.table.client.send(
            new QueryCommand({
              TableName: this.table.name,
              IndexName: DUE_INDEX,
              KeyConditionExpression: 'GSI2PK = :pk AND GSI2SK < :before',
              ExpressionAttributeValues: { ':pk': duePartition(shard), ':before': dueBefore(now) },
              Limit: perShard,
            }),
          ),
        ),
      );
      for (const page of pages) {
        for (const item of page.Items ?? []) {
          const entry = typeof item.GSI2SK === 'string' ? parseDueKey(item.GSI2SK) : null;
          if (entry) found.push(entry);
        }
      }
    }
    return found;
  }
}
