/**
 * A DynamoDB stream read as the many shards a table has on AWS (./stream-poller.ts, `streamShards`).
 *
 * On AWS a table's stream has about one shard per partition, and a partition holds the items of many
 * partition keys: every record of one item (one partition key) is in one shard, in order
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html, "Reading and processing a
 * stream"), and Lambda reads each shard with an invocation of its own at a time
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html). DynamoDB Local's stream has one shard, so a
 * local function sees a few large batches where AWS hands it many small ones: the write each batch makes
 * (a counter's transaction, a stats item) looks cooler than it is. Lanes spread the records read by a hash
 * of their partition key, and each lane's records become batches of their own.
 */
import { createHash } from 'node:crypto';

/**
 * LOCAL_STREAM_SHARDS: the table's stream read as this many shards, 1 to 10,000; unset, the one shard
 * DynamoDB Local has. `npm start` refuses a value out of range before anything starts (../../start.ts).
 */
export function streamShardsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.LOCAL_STREAM_SHARDS;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 10_000)
    throw new Error(`LOCAL_STREAM_SHARDS must be a whole number from 1 to 10000, got "${raw}"`);
  return value;
}

/** Lanes handed to the function at once (each one invocation at a time, in order), whatever their number. */
export const MAX_LANES_AT_ONCE = 16;

/** The lane of a record whose key is `keys` (its `PK`, as the stream record's Keys give it), among `lanes`. */
export function laneOf(keys: Record<string, unknown> | undefined, lanes: number): number {
  if (lanes <= 1) return 0;
  const partitionKey = JSON.stringify(keys?.PK ?? keys ?? null);
  return createHash('sha1').update(partitionKey).digest().readUInt32BE(0) % lanes;
}

/**
 * `records` (in stream order) as the batches each lane hands over: the lanes that have records, each a list of
 * batches of at most `batchSize` records in their stream order.
 */
export function laneBatches<T>(
  records: readonly T[],
  lanes: number,
  batchSize: number,
  keysOf: (record: T) => Record<string, unknown> | undefined,
): T[][][] {
  const byLane = new Map<number, T[]>();
  for (const record of records) {
    const lane = laneOf(keysOf(record), lanes);
    const list = byLane.get(lane);
    if (list) list.push(record);
    else byLane.set(lane, [record]);
  }
  return [...byLane.values()].map((laneRecords) => {
    const batches: T[][] = [];
    for (let start = 0; start < laneRecords.length; start += batchSize) batches.push(laneRecords.slice(start, start + batchSize));
    return batches;
  });
}
