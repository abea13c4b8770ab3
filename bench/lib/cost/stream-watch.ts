/**
 * The bench's own reader of the table's stream (a second reader beside the local cloud's mappings): from
 * `start()` to `stop()`, every record's write units by partition (./partition-writes.ts). It reads the open
 * shards from their latest record at start, and shards opened later from their first, every 250 ms.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { writeUnitsOf, type Image, type IndexShape, type PartitionUnits } from './partition-writes';

const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StreamWatch {
  /** Stops after reading what the stream holds by now; the write units by partition since start. */
  stop(): Promise<{ units: PartitionUnits; records: number }>;
}

export async function watchStream(options: {
  endpoint: string;
  region: string;
  tableName: string;
  indexes: readonly IndexShape[];
}): Promise<StreamWatch> {
  const credentials = { accessKeyId: 'bench', secretAccessKey: 'bench' };
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint, region: options.region, credentials });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: options.region, credentials });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);
  const units: PartitionUnits = {};
  let records = 0;
  const iterators = new Map<string, string | undefined>();
  const known = new Set<string>();
  const discover = async (first: boolean) => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId!;
      if (known.has(id)) continue;
      known.add(id);
      const open = !shard.SequenceNumberRange?.EndingSequenceNumber;
      if (first && !open) continue;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: id, ShardIteratorType: first ? 'LATEST' : 'TRIM_HORIZON' }),
      );
      iterators.set(id, ShardIterator);
    }
  };
  /** One pass over every shard; whether it read anything. */
  const readAll = async () => {
    let read = 0;
    for (const [id, iterator] of iterators) {
      if (!iterator) continue;
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      for (const record of answer.Records ?? []) {
        writeUnitsOf(
          record.dynamodb?.OldImage as Image | undefined,
          record.dynamodb?.NewImage as Image | undefined,
          options.indexes,
          units,
        );
        records++;
        read++;
      }
      iterators.set(id, answer.NextShardIterator);
    }
    return read > 0;
  };
  await discover(true);
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      await readAll();
      await discover(false);
      await sleep(POLL_MS);
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      await discover(false);
      while (await readAll());
      streams.destroy();
      return { units, records };
    },
  };
}
