/**
 * The outbox relay's contract (which items are handed to the send queue, which usage is counted), its
 * prefix rule (only records reported done are counted; a retry never counts a record twice), and the
 * idempotency of a retried usage write (real DynamoDB Local: transactions with a ClientRequestToken).
 * Records are real-shaped stream records (marshalled items) decoded by the relay's reader.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startFauxqs } from 'fauxqs';
import { unitDynamoDb, type UnitDynamoDb } from '../../support/unit-dynamodb';
import { createKeysOnlyTable } from '../../support/template-table';
import { SqsSendQueue } from '#shared/adapters/aws/sqs-send-queue';
import {
  DEFERRED_USAGE_SHARDS,
  DeferredUsageCounters,
  deferredShardKey,
  usageCounterId,
  type UsageIncrement,
} from '#shared/adapters/store/deferred-usage';
import { keys } from '#shared/adapters/store/keys';
import { emailAcceptances } from '#shared/adapters/store/email-acceptance-changes';
import { usageToken } from '#shared/lib/request-token';
import { relayOutbox as relayChanges, type RelayOutboxDeps } from '#shared/usecases/delivery/relay-outbox';
import { forEachStreamBatch } from '#shared/doors/worker/for-each-stream-record';
import { decodeAll, emailItem, inserted, streamRecord } from '../../support/stream-records';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL = 'silent';

let dynamoLocal: UnitDynamoDb;
let client: DynamoDBDocumentClient;
const TABLE = 'relay-test';

beforeAll(async () => {
  dynamoLocal = await unitDynamoDb();
  const raw = new DynamoDBClient({ endpoint: dynamoLocal.endpoint, region: 'us-east-1', credentials: dynamoLocal.credentials });
  client = DynamoDBDocumentClient.from(raw);
  await createKeysOnlyTable(raw, TABLE);
}, 60_000);
afterAll(async () => {
  client?.destroy();
  await dynamoLocal?.stop();
});

let accounts = 0;

/** An account's uncapped counters as accepted emails name them (keys.usage: the relay adds to their shards). */
function account() {
  const id = `acc_${++accounts}`;
  return { id, day: keys.usage(id, 'PLAN', 'DAY', '2026-01-01'), month: keys.usage(id, 'PLAN', 'MONTH', '2026-01') };
}

/** An account's counters where they were kept before 2026-11-25 (the account's partition: never sharded). */
function legacyAccount() {
  const id = `acc_${++accounts}`;
  return { id, day: keys.legacyUsage(id, 'PLAN', 'DAY', '2026-01-01'), month: keys.legacyUsage(id, 'PLAN', 'MONTH', '2026-01') };
}

/** The stream record of an email item's write (`edit` changes the item first). */
function email(
  id: string,
  status: string,
  usage?: { account: ReturnType<typeof account>; count: number },
  eventName: 'INSERT' | 'MODIFY' = 'INSERT',
  edit: (item: Record<string, any>) => void = () => undefined,
): DynamoDBRecord {
  const item = emailItem(id, {
    status,
    account_id: usage?.account.id ?? 'acc_x',
    ...(usage
      ? {
          usage_deferred: {
            account_id: usage.account.id,
            count: usage.count,
            entries: [
              { key: usage.account.day, expiresAt: 1_900_000_000 },
              { key: usage.account.month, expiresAt: 1_900_000_100 },
            ],
          },
        }
      : {}),
  });
  edit(item);
  return streamRecord(eventName, { newImage: item });
}

/** The relay over the records as its reader decodes them. */
const relayOutbox = (deps: RelayOutboxDeps, records: readonly DynamoDBRecord[]) => relayChanges(deps, decodeAll(emailAcceptances, records));

async function item(key: { PK: string; SK: string }): Promise<Record<string, any> | undefined> {
  return (await client.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
}

/** Each shard item of a counter the relay added to (its index: its count), the counter itself for a legacy key. */
async function shardCounts(key: { PK: string; SK: string }): Promise<Map<number, Record<string, any>>> {
  const found = new Map<number, Record<string, any>>();
  for (let shard = 0; shard < DEFERRED_USAGE_SHARDS; shard++) {
    const shardKey = deferredShardKey(usageCounterId(key), shard);
    const stored = await item(shardKey);
    if (stored) found.set(shard, stored);
    if (shardKey.PK === key.PK) break;
  }
  return found;
}

/** A counter as readers see it: the sum of its items, and their TTL (one for all, as a period's emails give). */
async function counter(key: { PK: string; SK: string }): Promise<{ count: number; ttl: unknown } | undefined> {
  const items = [...(await shardCounts(key)).values()];
  if (items.length === 0) return undefined;
  const ttls = [...new Set(items.map((stored) => stored.ttl))];
  return { count: items.reduce((sum, stored) => sum + Number(stored.count), 0), ttl: ttls.length === 1 ? ttls[0] : ttls };
}

function fakeQueue(refuse: (emailId: string, call: number) => boolean = () => false) {
  const sent: string[] = [];
  const calls: number[] = [];
  let call = 0;
  return {
    sent,
    calls,
    async enqueueMany(messages: { email_id: string }[]) {
      call++;
      calls.push(messages.length);
      const failed: number[] = [];
      messages.forEach((message, index) => {
        if (refuse(message.email_id, call)) failed.push(index);
        else sent.push(message.email_id);
      });
      return { failed };
    },
  };
}

function fakeEvents(failing = false) {
  const published: { type: string; email_id: unknown; id: string; data: Record<string, unknown> }[] = [];
  return {
    published,
    async publish(batch: { type: string; id: string; data: Record<string, unknown> }[]) {
      if (failing) throw new Error('queue down');
      published.push(...batch.map((event) => ({ type: event.type, email_id: event.data.email_id, id: event.id, data: event.data })));
    },
  };
}

function deps(
  queue = fakeQueue(),
  usage: RelayOutboxDeps['usage'] = new DeferredUsageCounters({ client, name: TABLE }),
  events = fakeEvents(),
): RelayOutboxDeps {
  return { sendQueue: queue, usage, events };
}

describe('relayOutbox', () => {
  it('hands queued emails to the send queue, counts deferred usage, ignores the rest', async () => {
    const a = account();
    const queue = fakeQueue();
    const records = [
      email('msg_queued', 'queued', { account: a, count: 2 }),
      email('msg_scheduled', 'scheduled', { account: a, count: 3 }),
      email('msg_refused', 'failed'),
      email('msg_modified', 'queued', undefined, 'MODIFY'),
      inserted({ PK: 'ACCOUNT#x', SK: 'COUNTER#DOMAINS', type: 'counter' }),
      email('msg_plain', 'queued'),
    ];
    const result = await relayOutbox(deps(queue), records);
    expect(result).toEqual({ done: 6, enqueued: 2, counted: 2, published: 1 });
    expect(queue.sent).toEqual(['msg_queued', 'msg_plain']);
    // Scheduled emails count at acceptance too; one update per counter for the whole batch.
    expect(await counter(a.day)).toMatchObject({ count: 5, ttl: 1_900_000_000 });
    expect(await counter(a.month)).toMatchObject({ count: 5, ttl: 1_900_000_100 });
  });

  it('publishes email.scheduled and email.suppressed from the inserted items, with ids derived from the email', async () => {
    const events = fakeEvents();
    const suppressed = email('msg_suppressed', 'failed', undefined, 'INSERT', (item) => {
      item.suppressed_event = { suppressed: ['r@y.test'], reason: 'suppressed' };
      item.last_event = 'suppressed';
    });
    const result = await relayOutbox(deps(fakeQueue(), undefined, events), [
      email('msg_s1', 'scheduled'),
      suppressed,
      email('msg_q', 'queued'),
    ]);
    expect(result).toMatchObject({ done: 3, enqueued: 1, published: 2 });
    expect(events.published.map((e) => [e.type, e.email_id])).toEqual([
      ['email.scheduled', 'msg_s1'],
      ['email.suppressed', 'msg_suppressed'],
    ]);
    expect(events.published[1]!.data).toMatchObject({ suppressed: ['r@y.test'], reason: 'suppressed' });
    const again = fakeEvents();
    await relayOutbox(deps(fakeQueue(), undefined, again), [email('msg_s1', 'scheduled')]);
    expect(again.published[0]!.id).toBe(events.published[0]!.id);
  });

  it('ends the done prefix at the first record with an event when publishing fails (retried from there)', async () => {
    const result = await relayOutbox(deps(fakeQueue(), undefined, fakeEvents(true)), [
      email('msg_q1', 'queued'),
      email('msg_s2', 'scheduled'),
      email('msg_q2', 'queued'),
    ]);
    expect(result).toMatchObject({ done: 1, published: 0, failure: 'event publish failed: queue down' });
  });

  it('sends in one call per batch (the adapter splits in tens) and keeps the first TTL of a counter', async () => {
    // One item whatever the batch (a legacy counter), so the second batch meets the first one's TTL.
    const a = legacyAccount();
    const queue = fakeQueue();
    await relayOutbox(deps(queue), [email('m1', 'queued', { account: a, count: 1 })]);
    const later = email(
      'm2',
      'queued',
      { account: a, count: 1 },
      'INSERT',
      (item) => (item.usage_deferred.entries[0].expiresAt = 1_999_999_999),
    );
    await relayOutbox(deps(queue), [later]);
    expect(await counter(a.day)).toMatchObject({ count: 2, ttl: 1_900_000_000 });
    expect(queue.calls).toEqual([1, 1]);
  });

  it('a refused message ends the done prefix: usage is counted for the records before it only, and the retry counts the rest once', async () => {
    const a = account();
    const queue = fakeQueue((id, call) => id === 'm3' && call === 1);
    const batch = ['m1', 'm2', 'm3', 'm4', 'm5'].map((id) => email(id, 'queued', { account: a, count: 1 }));
    const first = await relayOutbox(deps(queue), batch);
    expect(first).toMatchObject({ done: 2, enqueued: 4, counted: 2, failure: 'send queue refused email m3' });
    expect(await counter(a.day)).toMatchObject({ count: 2 });

    // The event source resumes at m3: sends again (the send worker claims each email once) and counts.
    const retry = await relayOutbox(deps(queue), batch.slice(2));
    expect(retry).toMatchObject({ done: 3 });
    expect(await counter(a.day)).toMatchObject({ count: 5 });
    expect(await counter(a.month)).toMatchObject({ count: 5 });
    expect(queue.sent).toEqual(['m1', 'm2', 'm4', 'm5', 'm3', 'm4', 'm5']);
  });

  it("spreads one account's batches over the counter's shards: a burst writes no item more than a few times its share, and the sum is exact", async () => {
    const a = account();
    const batches = 64;
    for (let i = 0; i < batches; i++) await relayOutbox(deps(), [email(`burst-${i}`, 'queued', { account: a, count: 1 })]);
    const shards = await shardCounts(a.day);
    const counts = [...shards.values()].map((stored) => Number(stored.count));
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(batches);
    // One item per counter took all 64 before; hashed over 32 shards the busiest takes a few (share: 2).
    expect(Math.max(...counts)).toBeLessThanOrEqual(10);
    expect(shards.size).toBeGreaterThanOrEqual(16);
    expect(await counter(a.month)).toMatchObject({ count: batches, ttl: 1_900_000_100 });
  });

  it("a shard item is the key layout's (keys.usageDeferredShard); a legacy counter is its own item", () => {
    for (const shard of [0, 7, DEFERRED_USAGE_SHARDS - 1]) {
      expect(deferredShardKey(usageCounterId(keys.usage('acc_1', 'PLAN', 'DAY', '2026-11-26')), shard)).toEqual(
        keys.usageDeferredShard('acc_1', 'PLAN', 'DAY', '2026-11-26', shard),
      );
    }
    const legacy = keys.legacyUsage('acc_1', 'PLAN', 'DAY', '2026-11-26');
    expect(deferredShardKey(usageCounterId(legacy), 5)).toEqual(legacy);
  });

  it('the same records relayed again (an invocation that died before its checkpoint) are counted once', async () => {
    const a = account();
    const batch = [email('x1', 'queued', { account: a, count: 1 }), email('x2', 'queued', { account: a, count: 4 })];
    await relayOutbox(deps(), batch);
    await relayOutbox(deps(), batch);
    expect(await counter(a.day)).toMatchObject({ count: 5 });
    // Other records with the same counts are other increments.
    await relayOutbox(deps(), [email('x3', 'queued', { account: a, count: 1 }), email('x4', 'queued', { account: a, count: 4 })]);
    expect(await counter(a.day)).toMatchObject({ count: 10 });
  });

  it('a failed usage write fails its records (nothing counted twice on the retry)', async () => {
    const a = account();
    const real = new DeferredUsageCounters({ client, name: TABLE });
    let failNext = true;
    const flaky = {
      maxPerCall: real.maxPerCall,
      add: async (increments: readonly UsageIncrement[], token: string) => {
        if (failNext) {
          failNext = false;
          throw new Error('throttled');
        }
        return real.add(increments, token);
      },
    };
    const batch = [email('u1', 'queued', { account: a, count: 1 }), email('u2', 'queued', { account: a, count: 1 })];
    expect(await relayOutbox(deps(fakeQueue(), flaky), batch)).toMatchObject({
      done: 0,
      enqueued: 2,
      counted: 0,
      failure: 'usage update failed: throttled',
    });
    expect(await counter(a.day)).toBeUndefined();
    expect(await relayOutbox(deps(fakeQueue(), flaky), batch)).toMatchObject({ done: 2 });
    expect(await counter(a.day)).toMatchObject({ count: 2 });
  });

  it('an unreadable email ends the batch at that record (the worker stops decoding there, the record is poison)', async () => {
    const a = account();
    const queue = fakeQueue();
    const handler = forEachStreamBatch('outbox-relay', emailAcceptances, async (records) => relayChanges(deps(queue), records));
    const noId = email('', 'queued');
    expect(await handler({ Records: [email('ok', 'queued'), noId, email('after', 'queued')] })).toEqual({
      batchItemFailures: [{ itemIdentifier: noId.dynamodb!.SequenceNumber }],
    });
    expect(queue.sent).toEqual(['ok']);
    const foreign = email(
      'm-foreign',
      'queued',
      { account: a, count: 1 },
      'INSERT',
      (item) => (item.usage_deferred.entries[0].key = { PK: 'ACCOUNT#someone-else', SK: 'USAGE#PLAN#DAY#2026-01-01' }),
    );
    expect(await handler({ Records: [foreign] })).toEqual({ batchItemFailures: [{ itemIdentifier: foreign.dynamodb!.SequenceNumber }] });
    const badCount = email('bad-count', 'queued', { account: a, count: 0 });
    expect(await handler({ Records: [badCount] })).toEqual({ batchItemFailures: [{ itemIdentifier: badCount.dynamodb!.SequenceNumber }] });
    expect(queue.sent).toEqual(['ok']);
    expect(await counter(a.day)).toBeUndefined();
  });

  it('splits a batch touching more than 100 counters into transactions of at most 100', async () => {
    const many = Array.from({ length: 60 }, () => account());
    const sizes: number[] = [];
    const real = new DeferredUsageCounters({ client, name: TABLE });
    const spy = {
      maxPerCall: real.maxPerCall,
      add: async (increments: readonly UsageIncrement[], token: string) => {
        sizes.push(increments.length);
        return real.add(increments, token);
      },
    };
    const result = await relayOutbox(
      deps(fakeQueue(), spy),
      many.map((a, i) => email(`g${i}`, 'queued', { account: a, count: 1 })),
    );
    expect(result).toMatchObject({ done: 60, counted: 120 });
    expect(sizes).toEqual([100, 20]);
    for (const a of many) expect(await counter(a.month)).toMatchObject({ count: 1 });
  });

  it('usage tokens name the records and fit ClientRequestToken', () => {
    expect(usageToken('usage', ['a', 'b'])).toHaveLength(36);
    expect(usageToken('usage', ['a', 'b'])).toBe(usageToken('usage', ['a', 'b']));
    expect(usageToken('usage', ['a', 'b'])).not.toBe(usageToken('usage', ['a', 'c']));
    // The same records, another writer (tenant-stats reads them too): another token, or DynamoDB refuses the
    // second transaction as the first's token with other parameters.
    expect(usageToken('usage', ['a', 'b'])).not.toBe(usageToken('stats', ['a', 'b']));
  });
});

describe('SqsSendQueue.enqueueMany (real fauxqs)', () => {
  it('sends in batches of 10 and answers the positions not accepted', async () => {
    const fauxqs = await startFauxqs({ port: 0, logger: false });
    const sqs = new SQSClient({
      endpoint: fauxqs.address,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const queue = fauxqs.createQueue('relay-send');
      const messages = Array.from({ length: 25 }, (_, i) => ({ email_id: `msg_${i}` }));
      expect(await new SqsSendQueue(sqs, queue.queueUrl).enqueueMany(messages)).toEqual({ failed: [] });
      const bodies: string[] = [];
      while (bodies.length < 25) {
        const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queue.queueUrl, MaxNumberOfMessages: 10 }));
        bodies.push(...(received.Messages ?? []).map((m) => m.Body!));
      }
      expect(bodies.map((b) => JSON.parse(b).email_id).sort()).toEqual(messages.map((m) => m.email_id).sort());
      // A call that fails as a whole fails each of its entries (never throws).
      const missing = queue.queueUrl.replace('relay-send', 'no-such-queue');
      expect(await new SqsSendQueue(sqs, missing).enqueueMany(messages.slice(0, 12))).toEqual({
        failed: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      });
    } finally {
      sqs.destroy();
      await fauxqs.stop();
    }
  });
});
