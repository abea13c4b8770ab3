/**
 * A repository's many-add of records that must be new (suppressions, category opt-outs): each record's item
 * put unless its key is taken, a hundred to a transaction (./put-new-items.ts). The same key given twice is
 * added once (one transaction may not name an item twice): the later record gets the first one's record,
 * not created, as a second add of it would answer. A record refused without the item there answered (it was
 * removed since) is settled by the repository's single add, and so is a call with one distinct record.
 */
import { putNewItems } from './put-new-items';
import type { Table } from './table';

export interface NewRecords<R> {
  /** The item of a record as the table holds it (its PK and SK name it). */
  itemOf(record: R): Record<string, unknown>;
  /** A stored item read back as a record. */
  fromItem(item: Record<string, unknown>): R;
  /** The single add, for a record refused without the item there answered. */
  addOne(record: R): Promise<{ record: R; created: boolean }>;
}

/** Adds `records`; for each, in order, the record on the table afterwards and whether this call created it. */
export async function addNewRecords<R>(
  table: Table,
  records: readonly R[],
  how: NewRecords<R>,
): Promise<{ record: R; created: boolean }[]> {
  const items = records.map((record) => how.itemOf(record));
  const first = new Map<string, number>();
  const distinct: number[] = [];
  const slots = items.map((item, index) => {
    const key = `${String(item.PK)}\u0000${String(item.SK)}`;
    if (!first.has(key)) {
      first.set(key, distinct.length);
      distinct.push(index);
    }
    return first.get(key)!;
  });
  // One record: a conditional PutItem (one write unit; a transaction costs two), as a bounce's or a complaint's.
  if (distinct.length === 1) {
    const one = await how.addOne(records[distinct[0]!]!);
    return slots.map((_, index) => (index === 0 ? one : { record: one.record, created: false }));
  }
  const outcomes = await putNewItems(
    table,
    distinct.map((index) => items[index]!),
  );
  const results = await Promise.all(
    outcomes.map((outcome, position) => {
      const record = records[distinct[position]!]!;
      if (outcome.created) return { record, created: true };
      return outcome.existing ? { record: how.fromItem(outcome.existing), created: false } : how.addOne(record);
    }),
  );
  const given = new Set<number>();
  return slots.map((slot) => {
    const result = results[slot]!;
    if (given.has(slot)) return { record: result.record, created: false };
    given.add(slot);
    return result;
  });
}
