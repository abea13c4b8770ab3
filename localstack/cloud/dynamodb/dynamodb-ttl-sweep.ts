/**
 * The local DynamoDB's Time to Live: DynamoDB Local keeps a table's TTL setting but never deletes an
 * expired item, so the local cloud does, as AWS does
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html):
 *
 * - an item expires when its TTL attribute (ours: `ttl`) is a Number, epoch seconds, below the current
 *   time; an item without it, or with another type, never expires; an item whose time is more than five
 *   years in the past is not deleted either ("Items with expiration times older than five years in the
 *   past are not deleted", so a value in milliseconds by mistake is not read as long expired);
 * - the deletion is a DeleteItem conditional on the item still being expired, so an item whose ttl was
 *   moved later meanwhile stays ("If the item is updated ... before it is deleted, ... not deleted");
 *   it flows through the table's stream as a REMOVE, as AWS's does;
 * - AWS deletes "typically within a few days": code must treat an expired item as absent (the stores
 *   do: shared/domain/accounts/retention.ts isExpired), and must not count on it being gone.
 *
 * "Current time" is the functions' clock (../stack/local-clock.ts: PUT /_local/clock moves it), so a test can
 * move time past a retention window and sweep (POST /_local/ttl/sweep). The local cloud sweeps every
 * TTL_SWEEP_INTERVAL_MS on its own; a sweep scans the whole table (the local table is small).
 */
import { DeleteItemCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { clockOffsetMs } from '../stack/local-clock';

export const TTL_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** AWS leaves alone items whose TTL is more than five years in the past. */
const FIVE_YEARS_SECONDS = 5 * 365 * 24 * 60 * 60;

export interface TtlTable {
  name: string;
  /** The table's TTL attribute (TimeToLiveSpecification.AttributeName). */
  attribute: string;
  /** Its key attributes (partition, sort). */
  keyAttributes: string[];
}

export interface TtlSweepResult {
  /** How many items each table lost. */
  deleted: Record<string, number>;
  /** The time the sweep took as now (ISO). */
  now: string;
}

/** The functions' clock (PUT /_local/clock moves it). */
export const functionsNow = (): Date => new Date(Date.now() + clockOffsetMs());

/** Whether a TTL attribute's value has expired at `nowSeconds`, as AWS decides. */
export function ttlExpired(value: AttributeValue | undefined, nowSeconds: number): boolean {
  if (!value || value.N === undefined) return false;
  const at = Number(value.N);
  return Number.isFinite(at) && at < nowSeconds && at > nowSeconds - FIVE_YEARS_SECONDS;
}

/** Deletes every item of `tables` whose TTL has passed at `now`. */
export async function sweepExpiredItems(
  dynamo: DynamoDBClient,
  tables: readonly TtlTable[],
  now: Date = functionsNow(),
): Promise<TtlSweepResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const deleted: Record<string, number> = {};
  for (const table of tables) {
    deleted[table.name] = 0;
    const names = { '#ttl': table.attribute };
    const values = { ':now': { N: String(nowSeconds) }, ':oldest': { N: String(nowSeconds - FIVE_YEARS_SECONDS) } };
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await dynamo.send(
        new ScanCommand({
          TableName: table.name,
          FilterExpression: '#ttl < :now AND #ttl > :oldest',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        if (!ttlExpired(item[table.attribute], nowSeconds)) continue;
        const key = Object.fromEntries(table.keyAttributes.map((name) => [name, item[name]!]));
        try {
          await dynamo.send(
            new DeleteItemCommand({
              TableName: table.name,
              Key: key,
              ConditionExpression: '#ttl < :now AND #ttl > :oldest',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            }),
          );
          deleted[table.name]! += 1;
        } catch (error) {
          // Changed since the scan (its ttl moved later, or gone): left as it is, as AWS leaves it.
          if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        }
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return { deleted, now: now.toISOString() };
}

export interface TtlSweeper {
  /** One sweep now (by the functions' clock) or at `now`. */
  sweep(now?: Date): Promise<TtlSweepResult>;
  stop(): void;
}

/** Sweeps on a period (and on demand); one sweep at a time (a demand during a sweep waits for it, then runs). */
export function startTtlSweeper(options: {
  dynamo: DynamoDBClient;
  tables: TtlTable[];
  intervalMs?: number;
  log?: (message: string) => void;
}): TtlSweeper {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = (now?: Date): Promise<TtlSweepResult> => {
    const next = running
      .catch(() => undefined)
      .then(async () => {
        const result = await sweepExpiredItems(options.dynamo, options.tables, now ?? functionsNow());
        const total = Object.values(result.deleted).reduce((sum, n) => sum + n, 0);
        if (total) options.log?.(`DynamoDB TTL: deleted ${total} expired items`);
        return result;
      });
    running = next;
    return next;
  };
  const timer = setInterval(() => {
    sweep().catch((error: Error) => options.log?.(`DynamoDB TTL sweep failed: ${error.message}`));
  }, options.intervalMs ?? TTL_SWEEP_INTERVAL_MS);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}

/** The deployed tables that have TTL enabled, from the template (AWS::DynamoDB::Table TimeToLiveSpecification, KeySchema). */
export function ttlTables(stack: {
  ofType(type: string): string[];
  record(id: string): { name?: string };
  properties<T>(id: string): T;
}): TtlTable[] {
  return stack.ofType('AWS::DynamoDB::Table').flatMap((id) => {
    const properties = stack.properties<{
      TimeToLiveSpecification?: { AttributeName?: string; Enabled?: boolean };
      KeySchema?: { AttributeName: string }[];
    }>(id);
    const spec = properties.TimeToLiveSpecification;
    if (!spec?.Enabled || !spec.AttributeName) return [];
    return [
      {
        name: stack.record(id).name!,
        attribute: spec.AttributeName,
        keyAttributes: (properties.KeySchema ?? []).map((key) => key.AttributeName),
      },
    ];
  });
}
