/**
 * A many-add of records where the same key may come twice (one transaction may not name an item twice):
 * each distinct key is added once, in order of first appearance, and a later record with the same key gets
 * the first one's result marked not created, as a second add of it would answer.
 */
export async function addDistinct<R, T extends { created: boolean }>(
  records: readonly R[],
  keyOf: (record: R) => string,
  add: (distinct: R[]) => Promise<T[]>,
): Promise<T[]> {
  const first = new Map<string, number>();
  const distinct: R[] = [];
  const slots = records.map((record) => {
    const key = keyOf(record);
    if (!first.has(key)) {
      first.set(key, distinct.length);
      distinct.push(record);
    }
    return first.get(key)!;
  });
  const results = await add(distinct);
  const given = new Set<number>();
  return slots.map((slot) => {
    const result = results[slot]!;
    if (given.has(slot)) return { ...result, created: false };
    given.add(slot);
    return result;
  });
}
