/**
 * A DynamoDB stream whose shards a test writes by hand (DynamoDB Local rolls shards only every 4 hours),
 * answering DescribeStream, GetShardIterator and GetRecords as DynamoDB Streams does, and counting calls.
 */
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream whose shards the test controls: records per shard, closing a shard, adding a child. */
export class ScriptedStream {
  /** The calls each command got, by name (GetRecordsCommand, GetShardIteratorCommand, DescribeStreamCommand). */
  readonly calls: Record<string, number> = {};
  shards: { shard: Shard; records: _Record[]; closed: boolean }[] = [];
  private seq = 0;
  addShard(id: string, parent?: string) {
    this.shards.push({
      shard: {
        ShardId: id,
        ParentShardId: parent,
        SequenceNumberRange: { StartingSequenceNumber: String(this.seq + 1).padStart(21, '0') },
      },
      records: [],
      closed: false,
    });
  }
  put(shardId: string, id: string) {
    const entry = this.shards.find((s) => s.shard.ShardId === shardId)!;
    const sequence = String(++this.seq).padStart(21, '0');
    entry.records.push({
      eventID: `ev-${sequence}`,
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'ddblocal',
      dynamodb: {
        SequenceNumber: sequence,
        NewImage: { type: { S: 'email' }, id: { S: id } },
        Keys: { PK: { S: id } },
        StreamViewType: 'NEW_IMAGE',
      },
    });
  }
  close(shardId: string) {
    const entry = this.shards.find((s) => s.shard.ShardId === shardId)!;
    entry.closed = true;
    entry.shard.SequenceNumberRange!.EndingSequenceNumber = entry.records.at(-1)?.dynamodb?.SequenceNumber ?? '0';
  }
  client(): DynamoDBStreamsClient {
    return {
      send: async (command: unknown) => {
        const name = (command as object).constructor.name;
        this.calls[name] = (this.calls[name] ?? 0) + 1;
        await sleep(1);
        if (command instanceof DescribeStreamCommand) return { StreamDescription: { Shards: this.shards.map((s) => ({ ...s.shard })) } };
        if (command instanceof GetShardIteratorCommand) {
          const { ShardId, ShardIteratorType, SequenceNumber } = command.input;
          const entry = this.shards.find((s) => s.shard.ShardId === ShardId)!;
          const position =
            ShardIteratorType === 'AFTER_SEQUENCE_NUMBER'
              ? entry.records.findIndex((r) => r.dynamodb!.SequenceNumber === SequenceNumber) + 1
              : ShardIteratorType === 'LATEST'
                ? entry.records.length
                : 0;
          return { ShardIterator: `${ShardId}|${position}` };
        }
        if (command instanceof GetRecordsCommand) {
          const [shardId, at] = command.input.ShardIterator!.split('|');
          const entry = this.shards.find((s) => s.shard.ShardId === shardId)!;
          const records = entry.records.slice(Number(at));
          const next = Number(at) + records.length;
          return { Records: records, NextShardIterator: entry.closed && records.length === 0 ? undefined : `${shardId}|${next}` };
        }
        throw new Error(`unexpected command ${name}`);
      },
    } as unknown as DynamoDBStreamsClient;
  }
}
