/**
 * Which partitions a write lands on, and how many write units each gets, from a table stream record's
 * old and new images (NEW_AND_OLD_IMAGES), by DynamoDB's rules for tables and global secondary indexes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes):
 *  - the table: the larger of the item before and after, 1 unit per KB, on its partition key;
 *  - an index: a put when the item enters it, a delete when it leaves, both when its index key changes
 *    (the delete on the old partition), an update of its projection when a projected attribute changed
 *    (ALL: any attribute; KEYS_ONLY: none), each 1 unit per KB of the projected item.
 * A transaction's writes count twice in DynamoDB; a stream record does not say it was one: the bench scales
 * these shares to the units DynamoDB reported per table and index (./partition-model.ts).
 */
import { itemSize, type WireValue } from './item-size';

export interface IndexShape {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  projection?: 'ALL' | 'KEYS_ONLY';
}

export type Image = Record<string, WireValue>;

/** "<table|index>\t<partition key value>" -> write units. */
export type PartitionUnits = Record<string, number>;

const keyText = (value: WireValue | undefined) => (value === undefined ? undefined : (value.S ?? value.N ?? JSON.stringify(value)));
const units = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

function projected(image: Image, index: IndexShape): Image {
  if ((index.projection ?? 'ALL') === 'ALL') return image;
  const keep = ['PK', 'SK', index.partitionKey, index.sortKey];
  return Object.fromEntries(Object.entries(image).filter(([name]) => keep.includes(name)));
}

/** Two values alike, whatever the order of a map's attributes. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}
const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The write units of one stream record, by partition. */
export function writeUnitsOf(
  oldImage: Image | undefined,
  newImage: Image | undefined,
  indexes: readonly IndexShape[],
  into: PartitionUnits = {},
): PartitionUnits {
  const add = (where: string, pk: string | undefined, amount: number) => {
    if (pk === undefined) return;
    const name = `${where}\t${pk}`;
    into[name] = (into[name] ?? 0) + amount;
  };
  const item = newImage ?? oldImage;
  if (!item) return into;
  add('table', keyText(item.PK), units(Math.max(oldImage ? itemSize(oldImage) : 0, newImage ? itemSize(newImage) : 0)));
  for (const index of indexes) {
    const before = oldImage?.[index.partitionKey] && oldImage[index.sortKey] ? oldImage : undefined;
    const after = newImage?.[index.partitionKey] && newImage[index.sortKey] ? newImage : undefined;
    if (!before && !after) continue;
    if (before && after) {
      const moved = !same(before[index.partitionKey], after[index.partitionKey]) || !same(before[index.sortKey], after[index.sortKey]);
      if (moved) {
        add(index.indexName, keyText(before[index.partitionKey]), units(itemSize(projected(before, index))));
        add(index.indexName, keyText(after[index.partitionKey]), units(itemSize(projected(after, index))));
      } else if (!same(projected(before, index), projected(after, index))) {
        add(
          index.indexName,
          keyText(after[index.partitionKey]),
          units(Math.max(itemSize(projected(before, index)), itemSize(projected(after, index)))),
        );
      }
    } else if (after) add(index.indexName, keyText(after[index.partitionKey]), units(itemSize(projected(after, index))));
    else add(index.indexName, keyText(before![index.partitionKey]), units(itemSize(projected(before!, index))));
  }
  return into;
}
