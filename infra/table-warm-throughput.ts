/**
 * Contexts `tableWarmWrites` and `tableWarmReads` (`cdk deploy -c tableWarmWrites=20000`): the table's warm
 * throughput, the write and read units a second it serves at once, set on the table and on each of its indexes
 * (a send writes index entries too). A new on-demand table serves 4,000 write and 12,000 read units a second
 * at once and grows from its peaks; a launch or a migration above that is throttled until it has
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html). Pre-warming is a
 * one-time charge, and a table's warm throughput never goes down: raise it before a known peak
 * (docs/deploy.md, "Throughput ceilings"). Unset: not declared, DynamoDB's own values.
 */
import type { WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';

export const TABLE_WARM_WRITES_CONTEXT = 'tableWarmWrites';
export const TABLE_WARM_READS_CONTEXT = 'tableWarmReads';

/** What a new on-demand table (and each new index) serves without pre-warming: a value at or below is pointless. */
export const ON_DEMAND_WARM_DEFAULTS = { writeUnitsPerSecond: 4_000, readUnitsPerSecond: 12_000 } as const;

function unitsFrom(context: unknown, name: string, above: number): number | undefined {
  if (context === undefined || context === '') return undefined;
  const units = Number(context);
  if (!Number.isInteger(units) || units <= above) {
    throw new Error(
      `context ${name} must be a whole number of units a second above ${above.toLocaleString('en-US')} (what a new on-demand table serves without pre-warming), got '${String(context)}'`,
    );
  }
  return units;
}

/** The warm throughput the contexts ask for, or undefined when neither is set; throws on a bad value. */
export function tableWarmThroughput(writes: unknown, reads: unknown): WarmThroughput | undefined {
  const writeUnitsPerSecond = unitsFrom(writes, TABLE_WARM_WRITES_CONTEXT, ON_DEMAND_WARM_DEFAULTS.writeUnitsPerSecond);
  const readUnitsPerSecond = unitsFrom(reads, TABLE_WARM_READS_CONTEXT, ON_DEMAND_WARM_DEFAULTS.readUnitsPerSecond);
  if (writeUnitsPerSecond === undefined && readUnitsPerSecond === undefined) return undefined;
  return {
    ...(writeUnitsPerSecond !== undefined ? { writeUnitsPerSecond } : {}),
    ...(readUnitsPerSecond !== undefined ? { readUnitsPerSecond } : {}),
  };
}
