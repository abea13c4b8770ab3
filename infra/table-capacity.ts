/**
 * Context `tableCapacity` (`cdk deploy -c tableCapacity=provisioned`): the table's capacity mode. On demand (the
 * default) bills each request; provisioned bills capacity by the hour, kept at 70% use by Application Auto
 * Scaling's target tracking on the table and on each index, about 2.4 times cheaper per unit at steady load
 * ($0.00065 per write unit-hour against $0.625 per million write requests, us-east-1). Scaling follows the load
 * in minutes, not seconds: a burst beyond the capacity and DynamoDB's burst credits (up to 300 seconds of unused
 * capacity) is throttled and retried, so provisioned suits steady traffic (docs/deploy.md, "Throughput ceilings").
 * `tableWriteCapacity` and `tableReadCapacity` (`min:max` units a second, each for the table and for each index)
 * bound the scaling.
 */

export const TABLE_CAPACITY_CONTEXT = 'tableCapacity';
export const TABLE_WRITE_CAPACITY_CONTEXT = 'tableWriteCapacity';
export const TABLE_READ_CAPACITY_CONTEXT = 'tableReadCapacity';

/** Target tracking keeps consumed capacity at this share of provisioned capacity. */
export const TARGET_UTILIZATION_PERCENT = 70;

/** min:max when unset: a small floor (5 units: about $2.40 a month of writes per table or index) up to a new on-demand table's warm throughput. */
export const DEFAULT_CAPACITY = { writes: { min: 5, max: 4_000 }, reads: { min: 5, max: 12_000 } } as const;

export interface CapacityRange {
  min: number;
  max: number;
}

export type TableCapacity = { mode: 'on-demand' } | { mode: 'provisioned'; writes: CapacityRange; reads: CapacityRange };

/** DynamoDB's bound on one table's provisioned units a second without a quota increase (per table, each of reads and writes). */
const MAX_UNITS = 40_000;

function rangeFrom(context: unknown, name: string, fallback: CapacityRange): CapacityRange {
  if (context === undefined || context === '') return { ...fallback };
  const [min, max] = String(context)
    .split(':')
    .map((part) => Number(part.trim()));
  if (!Number.isInteger(min) || !Number.isInteger(max) || min! < 1 || max! < min! || max! > MAX_UNITS) {
    throw new Error(
      `context ${name} must be min:max, whole units a second with 1 <= min <= max <= ${MAX_UNITS.toLocaleString('en-US')} (a table's default quota), got '${String(context)}'`,
    );
  }
  return { min: min!, max: max! };
}

/** The capacity the contexts ask for; throws on a bad value, or on ranges given without `tableCapacity=provisioned`. */
export function tableCapacity(mode: unknown, writes: unknown, reads: unknown): TableCapacity {
  const chosen = mode === undefined || mode === '' ? 'on-demand' : String(mode);
  if (chosen === 'on-demand') {
    if ((writes !== undefined && writes !== '') || (reads !== undefined && reads !== '')) {
      throw new Error(
        `contexts ${TABLE_WRITE_CAPACITY_CONTEXT} and ${TABLE_READ_CAPACITY_CONTEXT} bound provisioned capacity: add -c ${TABLE_CAPACITY_CONTEXT}=provisioned`,
      );
    }
    return { mode: 'on-demand' };
  }
  if (chosen !== 'provisioned') {
    throw new Error(`context ${TABLE_CAPACITY_CONTEXT} must be on-demand or provisioned, got '${chosen}'`);
  }
  return {
    mode: 'provisioned',
    writes: rangeFrom(writes, TABLE_WRITE_CAPACITY_CONTEXT, DEFAULT_CAPACITY.writes),
    reads: rangeFrom(reads, TABLE_READ_CAPACITY_CONTEXT, DEFAULT_CAPACITY.reads),
  };
}
