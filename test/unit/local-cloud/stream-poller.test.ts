/**
 * The local Lambda runtime's DynamoDB Streams event source, against real DynamoDB Local (streams) and
 * real fauxqs (the on-failure queue): Lambda-shaped records, filters, batches, batchItemFailures,
 * retries then the on-failure destination, bisection, checkpoints across restarts, LATEST, a clean stop;
 * and shard lineage (a parent read before its child) against a scripted stream, since DynamoDB Local
 * only rolls shards every 4 hours.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { STREAM_WORKERS, TABLE, type FilterPattern } from '#infra/definitions';
import { createKeysOnlyTable, ensureTemplateTable } from '../../support/template-table';
import { unitDynamoDb, type UnitDynamoDb } from '../../support/unit-dynamodb';
import { StreamCheckpoints } from '#localstack/cloud/streams/stream-checkpoints';
import { matchesFilters } from '#localstack/cloud/streams/stream-filters';
import type { StreamBatchFailure, StreamHandler, StreamPollerOptions } from '#localstack/cloud/streams/stream-mapping';
import { StreamPoller } from '#localstack/cloud/streams/stream-poller';
import { ScriptedStream } from '../../support/scripted-stream';
import { StreamShardFeed } from '#localstack/cloud/streams/stream-shard-feed';
import { laneOf, streamShardsFromEnv } from '#localstack/cloud/streams/stream-lanes';
import { waitFor } from '../../support/wait';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let dynamoLocal: UnitDynamoDb;
let dynamo: DynamoDBClient;
let streams: DynamoDBStreamsClient;
let fauxqs: FauxqsServer;
let sqs: SQSClient;
let tables = 0;
const running: StreamPoller[] = [];

beforeAll(async () => {
  [dynamoLocal, fauxqs] = await Promise.all([unitDynamoDb(), startFauxqs({ port: 0, logger: false })]);
  dynamo = new DynamoDBClient({ endpoint: dynamoLocal.endpoint, region: 'us-east-1', credentials: dynamoLocal.credentials });
  streams = new DynamoDBStreamsClient({ endpoint: dynamoLocal.endpoint, region: 'us-east-1', credentials: dynamoLocal.credentials });
  sqs = new SQSClient({ endpoint: fauxqs.address, region: 'us-east-1', credentials });
}, 60_000);
// The tests run at once (`it.concurrent`: their batching windows, retries and timeouts overlap), each on a table
// of its own: every poller a test started is stopped after the file's tests, even when one failed.
afterAll(async () => {
  await Promise.all(running.splice(0).map((poller) => poller.stop()));
  dynamo?.destroy();
  streams?.destroy();
  sqs?.destroy();
  await Promise.all([dynamoLocal?.stop(), fauxqs?.stop()]);
});

const EMAILS: FilterPattern[] = [{ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['email'] } } } }];

async function newTable(): Promise<{ name: string; streamArn: string }> {
  const name = `stream-test-${++tables}`;
  const created = await dynamo.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }),
  );
  return { name, streamArn: created.TableDescription!.LatestStreamArn! };
}

async function putEmail(table: string, id: string, extra: Record<string, any> = {}): Promise<void> {
  await dynamo.send(
    new PutItemCommand({
      TableName: table,
      Item: { PK: { S: `EMAIL#${id}` }, type: { S: 'email' }, id: { S: id }, status: { S: 'queued' }, ...extra },
    }),
  );
}

async function putOther(table: string, pk: string): Promise<void> {
  await dynamo.send(new PutItemCommand({ TableName: table, Item: { PK: { S: pk }, type: { S: 'counter' }, count: { N: '1' } } }));
}

/** Waits until `check` holds; a timeout names the check (its source unless told) and its last answer or error. */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = String(check)): Promise<void> {
  await waitFor(check, what, timeoutMs, 20);
}

/** An iterator at the start of the stream's (one) shard. */
async function firstIterator(streamArn: string): Promise<string> {
  const described = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  const shardId = described.StreamDescription!.Shards![0]!.ShardId!;
  const iterator = await streams.send(
    new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }),
  );
  return iterator.ShardIterator!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ids = (event: DynamoDBStreamEvent) => event.Records.map((r) => r.dynamodb!.NewImage!.id!.S!);

function poller(streamArn: string, handler: StreamHandler, options: Partial<StreamPollerOptions> = {}): StreamPoller {
  const p = new StreamPoller({
    name: 'test-relay',
    streams,
    streamArn,
    handler,
    startingPosition: 'TRIM_HORIZON',
    batchSize: 100,
    maxBatchingWindowMs: 0,
    filters: EMAILS,
    retryAttempts: 2,
    bisectBatchOnFunctionError: false,
    reportBatchItemFailures: true,
    timeoutSeconds: 5,
    checkpoints: new StreamCheckpoints(),
    pollIntervalMs: 10,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 20,
    log: () => undefined,
    ...options,
  });
  running.push(p);
  p.start();
  return p;
}

function failureQueue() {
  const queue = fauxqs.createQueue(`on-failure-${tables}-${Date.now()}`);
  const failures: StreamBatchFailure[] = [];
  return {
    onFailure: async (failure: StreamBatchFailure) => {
      await sqs.send(new SendMessageCommand({ QueueUrl: queue.queueUrl, MessageBody: JSON.stringify(failure) }));
    },
    async received(): Promise<StreamBatchFailure[]> {
      const result = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      failures.push(...(result.Messages ?? []).map((m) => JSON.parse(m.Body!) as StreamBatchFailure));
      return failures;
    },
  };
}

describe('StreamPoller against DynamoDB Local', () => {
  it.concurrent('invokes the handler with Lambda-shaped records of the matching INSERTs only, in order', async () => {
    const { name, streamArn } = await newTable();
    const events: DynamoDBStreamEvent[] = [];
    await putEmail(name, 'a', {
      n: { N: '7' },
      data: { B: Buffer.from('hi') },
      nested: { M: { list: { L: [{ S: 'x' }, { NULL: true }] } } },
      empty: { M: {} },
      none: { L: [] },
    });
    await putOther(name, 'COUNTER#1');
    await dynamo.send(
      new UpdateItemCommand({
        TableName: name,
        Key: { PK: { S: 'EMAIL#a' } },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: 'sent' } },
      }),
    );
    await putEmail(name, 'b');
    const p = poller(streamArn, async (event) => {
      events.push(event);
    });
    await waitUntil(() => events.flatMap(ids).length === 2);
    await sleep(100);
    expect(events.flatMap(ids)).toEqual(['a', 'b']);
    const record: DynamoDBRecord = events[0]!.Records[0]!;
    expect(record).toMatchObject({
      eventName: 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      eventSourceARN: streamArn,
      dynamodb: {
        Keys: { PK: { S: 'EMAIL#a' } },
        NewImage: {
          PK: { S: 'EMAIL#a' },
          type: { S: 'email' },
          id: { S: 'a' },
          n: { N: '7' },
          data: { B: Buffer.from('hi').toString('base64') },
          nested: { M: { list: { L: [{ S: 'x' }, { NULL: true }] } } },
          empty: { M: {} },
          none: { L: [] },
        },
        StreamViewType: 'NEW_IMAGE',
      },
    });
    expect(record.eventID).toEqual(expect.any(String));
    expect(record.dynamodb!.SequenceNumber).toMatch(/^\d+$/);
    expect(record.dynamodb!.ApproximateCreationDateTime).toBeGreaterThan(Date.now() / 1000 - 600);
    expect(Number.isInteger(record.dynamodb!.ApproximateCreationDateTime)).toBe(true);
    expect(p.stats.filteredOut).toBe(2);
    expect(p.status()).toBe('up');
  });

  it.concurrent('batches up to batchSize, and waits for the batching window', async () => {
    const { name, streamArn } = await newTable();
    for (const id of ['1', '2', '3', '4', '5', '6', '7']) await putEmail(name, id);
    const sizes: number[] = [];
    poller(streamArn, async (event) => void sizes.push(event.Records.length), { batchSize: 3 });
    await waitUntil(() => sizes.reduce((a, b) => a + b, 0) === 7);
    expect(sizes).toEqual([3, 3, 1]);

    const windowed = await newTable();
    const batches: string[][] = [];
    poller(windowed.streamArn, async (event) => void batches.push(ids(event)), { batchSize: 10, maxBatchingWindowMs: 400 });
    await putEmail(windowed.name, 'w1');
    await sleep(100);
    await putEmail(windowed.name, 'w2');
    await waitUntil(() => batches.length === 1);
    expect(batches).toEqual([['w1', 'w2']]);
  });

  it.concurrent('checkpoints before the first reported failure and retries from it', async () => {
    const { name, streamArn } = await newTable();
    for (const id of ['a', 'b', 'c', 'd']) await putEmail(name, id);
    const invocations: string[][] = [];
    let failOnce = true;
    const checkpoints = new StreamCheckpoints();
    poller(
      streamArn,
      async (event) => {
        invocations.push(ids(event));
        const c = event.Records.find((r) => r.dynamodb!.NewImage!.id!.S === 'c');
        if (failOnce && c) {
          failOnce = false;
          // Reports c and d: processing resumes at the lowest one.
          const d = event.Records.find((r) => r.dynamodb!.NewImage!.id!.S === 'd')!;
          return { batchItemFailures: [{ itemIdentifier: d.dynamodb!.SequenceNumber! }, { itemIdentifier: c.dynamodb!.SequenceNumber! }] };
        }
        return { batchItemFailures: [] };
      },
      { checkpoints },
    );
    await waitUntil(() => invocations.length === 2);
    expect(invocations).toEqual([
      ['a', 'b', 'c', 'd'],
      ['c', 'd'],
    ]);
  });

  it.concurrent('an unknown batchItemFailures identifier retries the whole batch', async () => {
    const { name, streamArn } = await newTable();
    await putEmail(name, 'a');
    await putEmail(name, 'b');
    const invocations: string[][] = [];
    poller(streamArn, async (event) => {
      invocations.push(ids(event));
      return invocations.length === 1 ? { batchItemFailures: [{ itemIdentifier: 'nope' }] } : undefined;
    });
    await waitUntil(() => invocations.length === 2);
    expect(invocations).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });

  it.concurrent('retries a failing batch retryAttempts times, then describes it on the on-failure queue and moves on', async () => {
    const { name, streamArn } = await newTable();
    await putEmail(name, 'ok1');
    await putEmail(name, 'poison');
    await putEmail(name, 'ok2');
    const queue = failureQueue();
    const seen: string[][] = [];
    const p = poller(
      streamArn,
      async (event) => {
        seen.push(ids(event));
        const poison = event.Records.findIndex((r) => r.dynamodb!.NewImage!.id!.S === 'poison');
        return { batchItemFailures: poison < 0 ? [] : [{ itemIdentifier: event.Records[poison]!.dynamodb!.SequenceNumber! }] };
      },
      { retryAttempts: 2, onFailure: queue.onFailure },
    );
    await waitUntil(async () => (await queue.received()).length === 1);
    await putEmail(name, 'after');
    await waitUntil(() => seen.flat().includes('after'));
    // First try, then 2 retries from the poison record; the batch given up is poison..ok2.
    expect(seen).toEqual([['ok1', 'poison', 'ok2'], ['poison', 'ok2'], ['poison', 'ok2'], ['after']]);
    const [failure] = await queue.received();
    expect(failure).toMatchObject({
      requestContext: {
        condition: 'RetryAttemptsExhausted',
        approximateInvokeCount: 3,
        functionArn: expect.stringContaining(':function:test-relay'),
      },
      responseContext: { statusCode: 200 },
      version: '1.0',
      DDBStreamBatchInfo: { batchSize: 2, streamArn, shardId: expect.stringMatching(/^shardId-/) },
    });
    const info = failure!.DDBStreamBatchInfo;
    expect(BigInt(info.endSequenceNumber)).toBeGreaterThan(BigInt(info.startSequenceNumber));
    expect(p.stats.failedBatches).toBe(1);
  });

  it.concurrent('bisects a batch whose handler throws until the poison record is alone', async () => {
    const { name, streamArn } = await newTable();
    for (const id of ['a', 'b', 'poison', 'c']) await putEmail(name, id);
    const queue = failureQueue();
    const handled: string[] = [];
    const invocations: string[][] = [];
    poller(
      streamArn,
      async (event) => {
        invocations.push(ids(event));
        if (ids(event).includes('poison')) throw new Error('boom');
        handled.push(...ids(event));
      },
      { retryAttempts: 1, bisectBatchOnFunctionError: true, onFailure: queue.onFailure },
    );
    await waitUntil(async () => (await queue.received()).length === 1 && handled.length === 3);
    expect(handled).toEqual(['a', 'b', 'c']);
    expect(invocations).toEqual([['a', 'b', 'poison', 'c'], ['a', 'b'], ['poison', 'c'], ['poison'], ['poison'], ['c']]);
    const [failure] = await queue.received();
    expect(failure!.DDBStreamBatchInfo.batchSize).toBe(1);
    expect(failure!.responseContext.functionError).toBe('Unhandled');
  });

  it.concurrent('treats a handler running past its timeout as a failure: the retry starts at the timeout, while the slow call still runs', async () => {
    const { name, streamArn } = await newTable();
    await putEmail(name, 'slow');
    // The first call never returns on its own: a poller that waited for it (and only then saw it was
    // late) would never call again; one that enforces the timeout retries after 1 s while it still hangs.
    let release!: () => void;
    const hang = new Promise<void>((resolve) => (release = resolve));
    const calls: { at: number; remainingMs: number }[] = [];
    let firstReturned = false;
    const logged: string[] = [];
    poller(
      streamArn,
      async (_event, context) => {
        calls.push({ at: Date.now(), remainingMs: context.getRemainingTimeInMillis() });
        if (calls.length === 1) {
          await hang;
          firstReturned = true;
        }
      },
      { timeoutSeconds: 1, log: (line) => logged.push(line) },
    );
    try {
      await waitUntil(() => calls.length === 2, 5000, 'a second call after the first timed out');
      expect(firstReturned).toBe(false);
      // Not before the timeout (the clock's 1 ms rounding aside), and reported as the timeout.
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(999);
      expect(calls[0]!.remainingMs).toBeLessThanOrEqual(1000);
      expect(logged).toContainEqual(expect.stringMatching(/Task timed out after 1\.\d\d seconds$/));
    } finally {
      release();
    }
  });

  it.concurrent('resumes from the checkpoint file after a restart instead of replaying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-checkpoints-'));
    const file = join(dir, 'stream-checkpoints.json');
    try {
      const { name, streamArn } = await newTable();
      for (const id of ['a', 'b', 'c']) await putEmail(name, id);
      await putOther(name, 'OTHER#1');
      const first: string[] = [];
      const p1 = poller(streamArn, async (event) => void first.push(...ids(event)), { checkpoints: new StreamCheckpoints(file) });
      await waitUntil(() => first.length === 3);
      await sleep(100);
      await p1.stop();
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      const shards = saved.pollers['test-relay'].shards;
      expect(saved.pollers['test-relay'].streamArn).toBe(streamArn);
      expect(Object.values(shards)).toEqual([{ sequenceNumber: expect.stringMatching(/^\d+$/) }]);

      await putEmail(name, 'd');
      const second: string[] = [];
      const p2 = poller(streamArn, async (event) => void second.push(...ids(event)), { checkpoints: new StreamCheckpoints(file) });
      await waitUntil(() => second.length === 1);
      await sleep(200);
      await p2.stop();
      expect(second).toEqual(['d']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.concurrent('a new LATEST mapping skips what is already in the stream', async () => {
    const { name, streamArn } = await newTable();
    await putEmail(name, 'old');
    const seen: string[] = [];
    poller(streamArn, async (event) => void seen.push(...ids(event)), { startingPosition: 'LATEST' });
    await sleep(300);
    await putEmail(name, 'new');
    await waitUntil(() => seen.length === 1);
    expect(seen).toEqual(['new']);
  });

  it.concurrent('stops promptly while idle and invokes nothing after stop', async () => {
    const { name, streamArn } = await newTable();
    let calls = 0;
    const p = poller(streamArn, async () => void calls++);
    await sleep(100);
    const started = Date.now();
    await p.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(p.status()).toBe('down: stopped');
    await putEmail(name, 'late');
    await sleep(200);
    expect(calls).toBe(0);
  });

  it.concurrent('reports down while the stream cannot be read', async () => {
    const p = poller('arn:aws:dynamodb:ddblocal:000000000000:table/missing/stream/2020-01-01T00:00:00.000', async () => undefined, {
      discoveryIntervalMs: 50,
    });
    await waitUntil(() => p.status().startsWith('down: describe stream failed'));
  });
});

describe('StreamPoller reading the stream as many shards (LOCAL_STREAM_SHARDS)', () => {
  const setStatus = (table: string, id: string, status: string) =>
    dynamo.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { PK: { S: `EMAIL#${id}` } },
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': { S: status } },
      }),
    );
  const statusOf = (record: DynamoDBRecord) => `${record.dynamodb!.NewImage!.id!.S}:${record.dynamodb!.NewImage!.status!.S}`;

  it.concurrent("hands each lane's records as batches of their own: one key's records in one lane, in order, at most batchSize each", async () => {
    const { name, streamArn } = await newTable();
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for (const id of items) await putEmail(name, id);
    for (const status of ['sent', 'delivered']) for (const id of items) await setStatus(name, id, status);
    const events: DynamoDBStreamEvent[] = [];
    const one = await newTable();
    for (const id of items) await putEmail(one.name, id);
    for (const status of ['sent', 'delivered']) for (const id of items) await setStatus(one.name, id, status);
    const single: DynamoDBStreamEvent[] = [];
    poller(one.streamArn, async (event) => void single.push(event), { filters: [], batchSize: 100 });
    poller(streamArn, async (event) => void events.push(event), { filters: [], batchSize: 3, streamShards: 4 });
    await waitUntil(() => events.flatMap((e) => e.Records).length === 24 && single.flatMap((e) => e.Records).length === 24);

    // One shard: the 24 records in one batch. Four: every batch is one lane's, at most 3 records.
    expect(single).toHaveLength(1);
    const lanes = events.map((event) => new Set(event.Records.map((r) => laneOf(r.dynamodb!.Keys, 4))));
    for (const laneSet of lanes) expect(laneSet.size).toBe(1);
    for (const event of events) expect(event.Records.length).toBeLessThanOrEqual(3);
    expect(new Set(lanes.map((laneSet) => [...laneSet][0])).size).toBeGreaterThan(1);
    // Each item's three records, in the order they were written.
    const seen = events.flatMap((event) => event.Records.map(statusOf));
    for (const id of items) expect(seen.filter((s) => s.startsWith(`${id}:`))).toEqual([`${id}:queued`, `${id}:sent`, `${id}:delivered`]);
    expect(events.length).toBeGreaterThanOrEqual(8);
  });

  it.concurrent('checkpoints the shard once every lane is done, without holding the other lanes back', async () => {
    const { name, streamArn } = await newTable();
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const held = items.find((id) => laneOf({ PK: { S: `EMAIL#${id}` } }, 2) === 0)!;
    const free = items.filter((id) => laneOf({ PK: { S: `EMAIL#${id}` } }, 2) === 1);
    expect(free.length).toBeGreaterThan(0);
    for (const id of items) await putEmail(name, id);
    const checkpoints = new StreamCheckpoints();
    const handled: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    poller(
      streamArn,
      async (event) => {
        if (ids(event).includes(held)) await gate;
        handled.push(...ids(event));
      },
      { checkpoints, streamShards: 2, batchSize: 10 },
    );
    // The free lane's records are handled while the held lane waits; the checkpoint has not moved.
    await waitUntil(() => free.every((id) => handled.includes(id)));
    expect(handled).not.toContain(held);
    const saved = () => Object.values(checkpoints.shards('test-relay', streamArn))[0]?.sequenceNumber;
    expect(saved()).toBeUndefined();
    release();
    await waitUntil(() => handled.length === items.length && saved() !== undefined);
    const last = await streams.send(new GetRecordsCommand({ ShardIterator: await firstIterator(streamArn) }));
    expect(saved()).toBe(last.Records!.at(-1)!.dynamodb!.SequenceNumber);
  });

  it.concurrent('refuses LOCAL_STREAM_SHARDS out of range, and takes none as one shard', () => {
    expect(streamShardsFromEnv({})).toBeUndefined();
    expect(streamShardsFromEnv({ LOCAL_STREAM_SHARDS: '1000' })).toBe(1000);
    for (const bad of ['0', '-1', '1.5', 'many', '10001'])
      expect(() => streamShardsFromEnv({ LOCAL_STREAM_SHARDS: bad })).toThrow(/LOCAL_STREAM_SHARDS must be a whole number from 1 to 10000/);
  });
});

describe('provisioning the table stream', () => {
  it.concurrent("enables the template's stream on a table from before the outbox, keeps it across restarts, replaces one of another view type", async () => {
    // A data folder from before the outbox: the table exists without a stream.
    await createKeysOnlyTable(dynamo, TABLE.name);
    const { streamArn } = await ensureTemplateTable(dynamo, TABLE.name);
    expect(streamArn).toContain(`table/${TABLE.name}/stream/`);
    const described = await dynamo.send(new DescribeTableCommand({ TableName: TABLE.name }));
    expect(described.Table!.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: TABLE.stream });
    expect(await ensureTemplateTable(dynamo, TABLE.name)).toEqual({ streamArn });

    await dynamo.send(new UpdateTableCommand({ TableName: TABLE.name, StreamSpecification: { StreamEnabled: false } }));
    await dynamo.send(
      new UpdateTableCommand({ TableName: TABLE.name, StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' } }),
    );
    const replaced = await ensureTemplateTable(dynamo, TABLE.name);
    expect(replaced.streamArn).toBeDefined();
    expect((await dynamo.send(new DescribeTableCommand({ TableName: TABLE.name }))).Table!.StreamSpecification!.StreamViewType).toBe(
      TABLE.stream,
    );
  });
});

describe('StreamPollers of one stream sharing its reads (DynamoDB Local)', () => {
  it.concurrent('each mapping gets every record it matches, in order; one that fails and retries holds back no other; one read of the shard serves them all', async () => {
    const { name, streamArn } = await newTable();
    let getRecords = 0;
    const counted = {
      send: (command: unknown, options?: unknown) => {
        if ((command as object) instanceof GetRecordsCommand) getRecords++;
        return streams.send(command as never, options as never);
      },
    } as unknown as DynamoDBStreamsClient;
    const feed = new StreamShardFeed({ streams: counted, streamArn, minIntervalMs: 50 });
    const seen: Record<string, string[]> = { all: [], emails: [], flaky: [] };
    let failures = 0;
    poller(streamArn, async (event) => void seen.all!.push(...event.Records.map((r) => r.dynamodb!.Keys!.PK!.S!)), {
      name: 'all',
      filters: [],
      feed,
      streams: counted,
      pollIntervalMs: 50,
    });
    poller(streamArn, async (event) => void seen.emails!.push(...ids(event)), {
      name: 'emails',
      feed,
      streams: counted,
      pollIntervalMs: 50,
    });
    poller(
      streamArn,
      async (event) => {
        // Fails its first three batches: retried (the mapping's own business) while the others go on.
        if (failures++ < 3) throw new Error('not yet');
        seen.flaky!.push(...ids(event));
      },
      { name: 'flaky', feed, streams: counted, pollIntervalMs: 50, retryAttempts: -1, retryBaseDelayMs: 300, retryMaxDelayMs: 300 },
    );
    for (let i = 0; i < 5; i++) {
      await putEmail(name, `e${i}`);
      await putOther(name, `COUNTER#${i}`);
    }
    const emails = ['e0', 'e1', 'e2', 'e3', 'e4'];
    await waitUntil(() => seen.emails!.length === 5 && seen.all!.length === 10);
    expect(seen.flaky!.length).toBeLessThan(5);
    await waitUntil(() => seen.flaky!.length === 5, 15_000);
    expect(seen.emails).toEqual(emails);
    expect(seen.flaky).toEqual(emails);
    expect(seen.all).toEqual(emails.flatMap((id, i) => [`EMAIL#${id}`, `COUNTER#${i}`]));
    // Quiet now: three mappings polling every 50 ms for a second read the shard about 20 times, not 60; and still
    // read it (a loaded machine may run the timers late: 3 reads in that second once in a whole run).
    const before = getRecords;
    await sleep(1_000);
    expect(getRecords - before).toBeLessThanOrEqual(25);
    expect(getRecords - before).toBeGreaterThanOrEqual(2);
  });
});

describe('StreamPoller shard lineage (scripted stream)', () => {
  it.concurrent('reads a closed parent to its end before its child, and follows a shard that closes', async () => {
    const stream = new ScriptedStream();
    stream.addShard('shardId-parent');
    stream.put('shardId-parent', 'p1');
    stream.put('shardId-parent', 'p2');
    stream.close('shardId-parent');
    stream.addShard('shardId-child', 'shardId-parent');
    stream.put('shardId-child', 'c1');
    const seen: string[] = [];
    const checkpoints = new StreamCheckpoints();
    poller('arn:scripted', async (event) => void seen.push(...ids(event)), {
      streams: stream.client(),
      checkpoints,
      discoveryIntervalMs: 10_000,
    });
    await waitUntil(() => seen.length === 3);
    expect(seen).toEqual(['p1', 'p2', 'c1']);

    // The open child closes (a rollover) and a grandchild appears: found without waiting for the
    // periodic listing, because the closing shard triggers one.
    stream.put('shardId-child', 'c2');
    stream.close('shardId-child');
    stream.addShard('shardId-grandchild', 'shardId-child');
    stream.put('shardId-grandchild', 'g1');
    await waitUntil(() => seen.length === 5, 3000);
    expect(seen).toEqual(['p1', 'p2', 'c1', 'c2', 'g1']);
    const shards = checkpoints.shards('test-relay', 'arn:scripted');
    expect(shards['shardId-parent']).toMatchObject({ done: true });
    expect(shards['shardId-child']).toMatchObject({ done: true });
    expect(shards['shardId-grandchild']).toEqual({ sequenceNumber: expect.any(String) });
  });

  it.concurrent('forgets the checkpoints of shards the stream no longer lists', async () => {
    const stream = new ScriptedStream();
    stream.addShard('shardId-live');
    const checkpoints = new StreamCheckpoints();
    await checkpoints.save('test-relay', 'arn:scripted', 'shardId-trimmed', { sequenceNumber: '1', done: true });
    poller('arn:scripted', async () => undefined, { streams: stream.client(), checkpoints });
    await waitUntil(() => !('shardId-trimmed' in checkpoints.shards('test-relay', 'arn:scripted')));
  });

  it.concurrent("reads a quiet shard at Lambda's base rate (4 times a second), and at once again while records come", async () => {
    const stream = new ScriptedStream();
    stream.addShard('shardId-quiet');
    const client = stream.client();
    const reads: number[] = [];
    const counting = {
      send: (command: object, ...rest: unknown[]) => {
        if (command.constructor.name === 'GetRecordsCommand') reads.push(Date.now());
        return (client.send as (...args: unknown[]) => unknown)(command, ...rest);
      },
    } as unknown as DynamoDBStreamsClient;
    const seen: string[] = [];
    // The defaults, not the helper's 10 ms.
    poller('arn:scripted', async (event) => void seen.push(...ids(event)), {
      streams: counting,
      pollIntervalMs: undefined,
      idlePollIntervalMs: undefined,
    });
    await waitUntil(() => reads.length > 0);
    await sleep(2_000);
    const quiet = reads.filter((at) => at > reads[0]!);
    // ~8 reads in 2 s after the first (it was ~40-80 at 25/50 ms); the bounds leave room for a slow machine.
    expect(quiet.length).toBeGreaterThanOrEqual(4);
    expect(quiet.length).toBeLessThanOrEqual(9);
    for (let i = 0; i < 250; i++) stream.put('shardId-quiet', `r${i}`);
    await waitUntil(() => seen.length === 250, 5000);
    // Right after records too: an empty read waits 250 ms (the local cloud used to read every 25 ms for a second).
    const drained = Date.now();
    await sleep(1_000);
    expect(reads.filter((at) => at > drained).length).toBeLessThanOrEqual(5);
  });
});

describe('Lambda event filter patterns', () => {
  const record = (image: Record<string, any>, eventName: 'INSERT' | 'MODIFY' = 'INSERT'): DynamoDBRecord => ({
    eventName,
    dynamodb: { NewImage: image },
  });

  it.concurrent('matches values, prefixes, anything-but, exists, numbers; OR across patterns, AND within one', () => {
    const email = record({ type: { S: 'email' }, status: { S: 'queued' }, tags: { SS: ['a', 'b'] } });
    expect(matchesFilters([], email)).toBe(true);
    expect(matchesFilters(EMAILS, email)).toBe(true);
    expect(matchesFilters(EMAILS, record({ type: { S: 'email' } }, 'MODIFY'))).toBe(false);
    expect(matchesFilters(EMAILS, record({ type: { S: 'counter' } }))).toBe(false);
    expect(matchesFilters(EMAILS, record({}))).toBe(false);
    expect(matchesFilters([{ dynamodb: { NewImage: { status: { S: [{ prefix: 'que' }] } } } }], email)).toBe(true);
    expect(matchesFilters([{ dynamodb: { NewImage: { status: { S: [{ 'anything-but': ['queued', 'failed'] }] } } } }], email)).toBe(false);
    expect(matchesFilters([{ dynamodb: { NewImage: { status: { S: [{ 'anything-but': 'failed' }] } } } }], email)).toBe(true);
    expect(matchesFilters([{ dynamodb: { NewImage: { usage_deferred: { M: [{ exists: true }] } } } }], email)).toBe(false);
    expect(matchesFilters([{ dynamodb: { NewImage: { usage_deferred: [{ exists: false }] } } }], email)).toBe(true);
    expect(matchesFilters([{ dynamodb: { NewImage: { tags: { SS: ['b'] } } } }], email)).toBe(true);
    expect(matchesFilters([{ eventName: ['MODIFY'] }, { dynamodb: { NewImage: { status: { S: ['queued'] } } } }], email)).toBe(true);
    expect(matchesFilters([{ eventName: ['INSERT'], dynamodb: { NewImage: { status: { S: ['sent'] } } } }], email)).toBe(false);
    expect(matchesFilters([{ dynamodb: { SizeBytes: [{ numeric: ['>', 10, '<=', 20] }] } }], { dynamodb: { SizeBytes: 15 } })).toBe(true);
    expect(matchesFilters([{ dynamodb: { SizeBytes: [{ numeric: ['>', 10, '<=', 20] }] } }], { dynamodb: { SizeBytes: 25 } })).toBe(false);
    expect(matchesFilters([{ dynamodb: { NewImage: { status: { S: [{ 'equals-ignore-case': 'QUEUED' }] } } } }], email)).toBe(true);
  });

  it.concurrent("the automation outbox's filter (the definition's) takes run inserts and modifies only", () => {
    const { filters } = STREAM_WORKERS.find((worker) => worker.name === 'automation-outbox')!;
    const run = { type: { S: 'run' }, step_state: { S: 'pending' } };
    expect(matchesFilters(filters, record(run))).toBe(true);
    expect(matchesFilters(filters, record(run, 'MODIFY'))).toBe(true);
    expect(matchesFilters(filters, { eventName: 'REMOVE', dynamodb: { OldImage: run } })).toBe(false);
    expect(matchesFilters(filters, record({ type: { S: 'email' } }))).toBe(false);
    expect(matchesFilters(filters, record({ type: { S: 'automation' } }, 'MODIFY'))).toBe(false);
  });
});
