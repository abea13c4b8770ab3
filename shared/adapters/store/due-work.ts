/**
 * Reads the due index (shared/adapters/store/due-index.ts): the keys of unfinished work whose due time has
 * passed, shard by shard (keys only; the reconciler reads each item consistently before acting). Each
 * key is decoded here into a typed entry carrying the ids of the item it stands for, so the reconciler
 * never knows how a key is written.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DUE_INDEX, DUE_KINDS, DUE_SHARDS, dueBefore, duePartition, type DueKind } from './due-index';
import type { Table } from './table';

export type { DueKind } from './due-index';

/** One past-due entry of the due index: its kind, the ids of its item, and the time it was due (ISO). */
export type DueEntry =
  | { kind: 'EMAIL'; emailId: string; dueAt: string }
  | { kind: 'DELIVERY'; webhookId: string; deliveryId: string; dueAt: string }
  | { kind: 'RUN'; runId: string; dueAt: string }
  | { kind: 'DOMAIN'; domainId: string; dueAt: string };

/** The entries of one kind. */
export type DueEntryOf<K extends DueKind> = Extract<DueEntry, { kind: K }>;

/** `<ISO>#<kind>#<id>` -> entry; null for a key of another shape. */
export function parseDueKey(sortKey: string): DueEntry | null {
  const first = sortKey.indexOf('#');
  const second = sortKey.indexOf('#', first + 1);
  if (first < 0 || second < 0) return null;
  const kind = sortKey.slice(first + 1, second) as DueKind;
  if (!DUE_KINDS.includes(kind)) return null;
  return dueEntry(kind, sortKey.slice(second + 1), sortKey.slice(0, first));
}

/** The entry of an index id of `kind` (the id each repository writes with setDue). */
function dueEntry(kind: DueKind, id: string, dueAt: string): DueEntry | null {
  switch (kind) {
    case 'EMAIL':
      return { kind, emailId: id, dueAt };
    case 'RUN':
      return { kind, runId: id, dueAt };
    case 'DOMAIN':
      return { kind, domainId: id, dueAt };
    case 'DELIVERY': {
      // `<webhook id>#<event ulid>` (deliveryDueId, shared/adapters/store/webhook-deliveries.ts); the delivery is `whd_<event ulid>`.
      const split = id.indexOf('#');
      if (split < 0) return null;
      return { kind, webhookId: id.slice(0, split), deliveryId: `whd_${id.slice(split + 1)}`, dueAt };
    }
  }
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
      const pages = await Promise.all(
        shards.slice(start, start + 8).map((shard) => pastDueSortKeys(this.table, duePartition(shard), now, perShard)),
      );
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
