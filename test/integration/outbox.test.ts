/**
 * The transactional outbox on the local cloud: an email item written `queued` into the table, with no
 * SQS call, reaches the send queue through the table's stream (outbox-relay) and is delivered; deferred
 * usage is counted once per email; the relay's checkpoint survives a restart (nothing replayed); a record
 * the relay cannot process is retried, then described on the on-failure queue, and the stream moves on.
 *
 * Until the send path stops calling SQS itself, API sends are enqueued twice (API + outbox): harmless,
 * the send worker claims each email once. These tests write items directly, so they see the outbox alone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { STREAM_WORKERS } from '#infra/definitions';
import { readStackFile, type StackInfo } from '#localstack/cloud/stack/stack-file';
import type { StreamBatchFailure } from '#localstack/cloud/streams/stream-mapping';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { newId } from '#shared/domain/ids';
import { keys } from '#shared/adapters/store/keys';
import { DEFERRED_USAGE_SHARDS, deferredShardKey, usageCounterId } from '#shared/adapters/store/deferred-usage';
import { emailIndexShard } from '#shared/adapters/store/email-index-shard';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';
import { api, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
const RELAY = STREAM_WORKERS.find((worker) => worker.name === 'outbox-relay')!;

function clientsFor(info: StackInfo) {
  const options = {
    endpoint: info.endpoints.dynamodb,
    region: info.region,
    credentials: { accessKeyId: info.env.AWS_ACCESS_KEY_ID!, secretAccessKey: info.env.AWS_SECRET_ACCESS_KEY! },
  };
  return {
    doc: DynamoDBDocumentClient.from(new DynamoDBClient(options), { marshallOptions: { removeUndefinedValues: true } }),
    streams: new DynamoDBStreamsClient(options),
    sqs: new SQSClient({ ...options, endpoint: info.endpoints.sqs }),
    table: info.env.TABLE_NAME!,
    destroy() {
      this.doc.destroy();
      this.streams.destroy();
      this.sqs.destroy();
    },
  };
}
type Clients = ReturnType<typeof clientsFor>;

interface Deferred {
  count: number;
  counters: { PK: string; SK: string }[];
}

/**
 * What the new send path writes: the email item (the shape of EmailRepository's put), `queued`, and for
 * uncapped plans the usage it owes, in one PutItem. Nothing is sent to SQS.
 */
async function writeEmail(
  clients: Clients,
  account: { id: string; email: string },
  options: { status?: string; deferred?: Deferred; subject?: string } = {},
): Promise<string> {
  const now = new Date();
  const id = newId('msg', now.getTime());
  const status = options.status ?? 'queued';
  await clients.doc.send(
    new PutCommand({
      TableName: clients.table,
      Item: {
        ...keys.email(id),
        GSI4PK: keys.emailsByAccount(account.id, emailIndexShard(id)),
        GSI4SK: id,
        type: 'email',
        id,
        account_id: account.id,
        from: `Outbox <outbox@${SANDBOX}>`,
        to: [account.email],
        cc: [],
        bcc: [],
        reply_to: [],
        subject: options.subject ?? `outbox ${id}`,
        status,
        last_event: status,
        tags: [],
        headers: {},
        created_at: now.toISOString(),
        last_event_rank: EVENT_RANK.queued,
        body: { text: 'written straight into the table' },
        ...(options.deferred
          ? {
              usage_deferred: {
                account_id: account.id,
                count: options.deferred.count,
                entries: options.deferred.counters.map((key) => ({ key, expiresAt: Math.floor(now.getTime() / 1000) + 86_400 })),
              },
            }
          : {}),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
  return id;
}

/** Uncapped counters of a (made-up) period of its own, so no send path writes to them. */
function countersOf(accountId: string, tag: string) {
  return [keys.usage(accountId, 'PLAN', 'DAY', `outbox-${tag}-day`), keys.usage(accountId, 'PLAN', 'MONTH', `outbox-${tag}-month`)];
}

/** A counter as readers see it: its own item and the shards the relay adds to (a legacy counter is one item). */
async function counterValue(clients: Clients, key: { PK: string; SK: string }): Promise<number> {
  const items = new Map<string, { PK: string; SK: string }>([[key.PK, key]]);
  for (let shard = 0; shard < DEFERRED_USAGE_SHARDS; shard++) {
    const shardKey = deferredShardKey(usageCounterId(key), shard);
    items.set(shardKey.PK, shardKey);
  }
  let total = 0;
  for (const Key of items.values()) {
    const result = await clients.doc.send(new GetCommand({ TableName: clients.table, Key, ConsistentRead: true }));
    total += Number(result.Item?.count ?? 0);
  }
  return total;
}

async function emailStatus(clients: Clients, id: string): Promise<string | undefined> {
  const result = await clients.doc.send(new GetCommand({ TableName: clients.table, Key: keys.email(id), ConsistentRead: true }));
  return result.Item?.status as string | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the outbox on the shared local cloud', () => {
  let clients: Clients;
  let account: TestAccount;
  beforeAll(async () => {
    clients = clientsFor(stack().info);
    account = await newAccount();
  });
  afterAll(() => clients?.destroy());

  it('reports the relay in /health', async () => {
    const health = await api('GET', '/health');
    expect(health.body.components[`stream:${RELAY.name}`]).toBe('up');
  });

  it('delivers an email written queued into the table, with no SQS call', async () => {
    const id = await writeEmail(clients, account, { subject: 'Outbox only' });
    const email = await waitForStatus(account, id, 'delivered');
    expect(email).toMatchObject({ id, subject: 'Outbox only', status: 'delivered' });
    const messages = await sesMessagesFor(id);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.to).toEqual([account.email]);
    expect(messages[0]!.raw).toContain('written straight into the table');
  });

  it('counts deferred usage once per email, also for scheduled emails, and leaves scheduled and refused emails alone', async () => {
    const counters = countersOf(account.id, 'shared');
    const queued = await Promise.all([1, 2, 3].map(() => writeEmail(clients, account, { deferred: { count: 2, counters } })));
    const scheduled = await writeEmail(clients, account, { status: 'scheduled', deferred: { count: 5, counters } });
    const refused = await writeEmail(clients, account, { status: 'failed' });
    for (const id of queued) await waitForStatus(account, id, 'delivered');
    await waitFor(async () => (await counterValue(clients, counters[0]!)) === 11, 'usage counted');
    // Settled: no late duplicate.
    await sleep(500);
    for (const key of counters) expect(await counterValue(clients, key)).toBe(11);
    expect(await emailStatus(clients, scheduled)).toBe('scheduled');
    expect(await emailStatus(clients, refused)).toBe('failed');
    expect(await sesMessagesFor(scheduled)).toHaveLength(0);
  });

  it("counts usage in the counters' own partitions, and an email accepted before they moved where it names; the ledger sums both", async () => {
    const period = { scope: 'PLAN' as const, period: 'DAY' as const, periodValue: 'outbox-moved-day', limit: null };
    const current = keys.usage(account.id, period.scope, period.period, period.periodValue);
    const legacy = keys.legacyUsage(account.id, period.scope, period.period, period.periodValue);
    expect(current.PK).toBe(`USAGE#${account.id}#PLAN#DAY#outbox-moved-day`);
    const ids = [
      await writeEmail(clients, account, { deferred: { count: 2, counters: [current] } }),
      await writeEmail(clients, account, { deferred: { count: 3, counters: [legacy] } }),
    ];
    for (const id of ids) await waitForStatus(account, id, 'delivered');
    await waitFor(async () => (await counterValue(clients, current)) === 2 && (await counterValue(clients, legacy)) === 3, 'both counted');
    expect(await stack().services.usage.current(account.id, period)).toBe(5);
  });

  it('relays an API send: delivered, and exactly one message reaches SES', async () => {
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'api + outbox', text: 't' },
    });
    expect(send.status).toBe(200);
    await waitForStatus(account, send.body.id, 'delivered');
    await sleep(300);
    expect(await sesMessagesFor(send.body.id)).toHaveLength(1);
  });
});

describe('the outbox on a stack of its own (data folder)', () => {
  let dataDir: string;
  let running: SpawnedStack | undefined;
  let clients: Clients | undefined;
  let owner: { id: string; email: string };

  const start = async () => {
    running = await spawnStack({ dataDir, inMemory: false });
    clients?.destroy();
    clients = clientsFor(readStackFile(dataDir)!);
  };
  const statusOf = async (id: string) => emailStatus(clients!, id);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mailservice-outbox-'));
    await start();
    // The account exists only as the email's owner here; the send path reads the email, not the account.
    owner = { id: newId('acc'), email: 'outbox-owner@example.com' };
  });
  afterAll(async () => {
    clients?.destroy();
    await running?.stop('SIGINT');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('resumes from its checkpoint after a restart: nothing relayed twice', async () => {
    const counters = countersOf(owner.id, 'restart');
    // Two batches before the stop; a replay would read them back as one batch (another usage token).
    const first = await writeEmail(clients!, owner, { deferred: { count: 1, counters } });
    await waitFor(async () => (await counterValue(clients!, counters[0]!)) === 1, 'first counted');
    const second = await writeEmail(clients!, owner, { deferred: { count: 1, counters } });
    await waitFor(async () => (await counterValue(clients!, counters[0]!)) === 2, 'second counted');
    await waitFor(async () => (await statusOf(first)) === 'delivered' && (await statusOf(second)) === 'delivered', 'both delivered');

    expect(await running!.stop('SIGINT')).toBe(0);
    const checkpoints = JSON.parse(readFileSync(join(dataDir, 'stream-checkpoints.json'), 'utf8'));
    const shards = Object.values(checkpoints.pollers[RELAY.name].shards) as { sequenceNumber?: string }[];
    expect(shards.some((shard) => shard.sequenceNumber)).toBe(true);

    await start();
    const third = await writeEmail(clients!, owner, { deferred: { count: 1, counters } });
    await waitFor(async () => (await statusOf(third)) === 'delivered', 'third delivered');
    await waitFor(async () => (await counterValue(clients!, counters[0]!)) >= 3, 'third counted');
    await sleep(1000);
    expect(await counterValue(clients!, counters[0]!)).toBe(3);
    expect(await counterValue(clients!, counters[1]!)).toBe(3);
  });

  it('retries a record it cannot process, then describes it on the on-failure queue, and moves on', async () => {
    const info = readStackFile(dataDir)!;
    const failuresUrl = info.env[RELAY.onFailure.envVar]!;
    // The relay's on-failure destination of the template (WorkersOutboxRelayOnFailure...).
    expect(failuresUrl).toContain('OutboxRelayOnFailure');
    // Usage owed to another account's counter: the relay refuses the record (it may only add to the
    // email's own account's counters).
    const poison = await writeEmail(clients!, owner, {
      deferred: { count: 1, counters: [keys.usage('acc_someone_else', 'PLAN', 'DAY', 'x')] },
    });
    const after = await writeEmail(clients!, owner);

    const failure = await waitFor(
      async () => {
        const received = await clients!.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: failuresUrl, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }),
        );
        return received.Messages?.[0] ? (JSON.parse(received.Messages[0].Body!) as StreamBatchFailure) : undefined;
      },
      'the on-failure message',
      40_000,
    );
    expect(failure).toMatchObject({
      requestContext: { condition: 'RetryAttemptsExhausted' },
      version: '1.0',
      // The poison record alone: the relay fails a batch it leads, so the batch is bisected around it.
      DDBStreamBatchInfo: { batchSize: 1, streamArn: expect.stringContaining('/stream/'), shardId: expect.stringMatching(/^shardId-/) },
    });
    expect(failure.requestContext.approximateInvokeCount).toBeGreaterThan(RELAY.retryAttempts);
    // The description points at the record: it can be read back from the stream (24 h) to redrive it.
    const { shardId, startSequenceNumber, streamArn } = failure.DDBStreamBatchInfo;
    const iterator = await clients!.streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: startSequenceNumber,
      }),
    );
    const records = await clients!.streams.send(new GetRecordsCommand({ ShardIterator: iterator.ShardIterator!, Limit: 1 }));
    expect(records.Records?.[0]?.dynamodb?.NewImage?.id?.S).toBe(poison);
    // Nothing lost: the refused email is still queued in the table; the stream went on after it.
    expect(await statusOf(poison)).toBe('queued');
    await waitFor(async () => (await statusOf(after)) === 'delivered', 'the next email delivered');
  }, 60_000);
});
