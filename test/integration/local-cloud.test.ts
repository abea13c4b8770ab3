/**
 * The embedded local cloud itself: health, the local mailbox, restart persistence on a data folder,
 * and a clean stop (no Java or Node process left behind). Starts its own on-disk stack.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OWN_STACKS_DYNAMODB_ENV, spawnStack, type SpawnedStack } from './harness/spawn-stack';
import { api, newAccount, sesMessages, stack, waitFor } from './harness/stack';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { SCHEDULED_TASKS, STREAM_WORKERS, WORKERS } from '#infra/definitions';
import { functionEntries } from '#infra/functions';
import type { LocalStackInfo } from '#localstack/cloud/cloud';
import { CACHE } from '../../bin/run-bundled';

const SANDBOX = 'sandbox.mailservice.dev';

function processesMentioning(text: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'));
}

async function call(base: string, method: string, path: string, key?: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
}

/** The data folder of the stacks a describe block starts, and the one running: killed and removed after its tests. */
function stacksOfItsOwn(prefix: string): { dataDir: string; running?: SpawnedStack } {
  const own: { dataDir: string; running?: SpawnedStack } = { dataDir: '' };
  beforeAll(() => {
    own.dataDir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await own.running?.stop('SIGKILL');
    rmSync(own.dataDir, { recursive: true, force: true });
  });
  return own;
}

describe('local cloud', () => {
  it('answers /health with 200 and every component up', async () => {
    const response = await api('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('ok');
    expect(Object.keys(response.body.components).sort()).toEqual(
      [
        'dns',
        'dynamodb',
        'scheduler',
        'ses',
        'sqs_sns_s3',
        ...WORKERS.map((worker) => `worker:${worker.name}`),
        ...STREAM_WORKERS.map((worker) => `stream:${worker.name}`),
        ...SCHEDULED_TASKS.map((task) => `task:${task.name}`),
      ].sort(),
    );
    expect(Object.values(response.body.components).every((state) => state === 'up')).toBe(true);
  });

  it("counts what Lambda would bill on /health: each function's invocations, billed ms and configured memory", async () => {
    type Billing = Record<string, { invocations: number; billed_ms: number; memory_mb: number }>;
    const billing = async () => (await api('GET', '/health')).body.lambda as Billing;
    const before = await billing();
    expect(Object.keys(before).sort()).toEqual(expect.arrayContaining(['emails', 'send-email', 'outbox-relay', 'reconciler']));
    expect(before['send-email']!.memory_mb).toBe(WORKERS.find((worker) => worker.name === 'send-email')!.memoryMb);
    const account = await newAccount();
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'billed', text: 't' },
    });
    await waitFor(async () => (await sesMessages({ email_id: send.body.id })).length > 0, 'message in mailbox');
    // The API's invocation (main thread) and the send worker's (workers thread) are both counted, each when
    // it settles: the send worker's after SES took the message (the mailbox may show it first).
    let after: Billing = before;
    await waitFor(async () => {
      after = await billing();
      return ['emails', 'send-email'].every((name) => after[name]!.invocations > before[name]!.invocations);
    }, "the send's invocations counted on /health");
    for (const name of ['emails', 'send-email']) {
      expect(after[name]!.invocations).toBeGreaterThan(before[name]!.invocations);
      // Each invocation is billed at least 1 ms (rounded up to the millisecond).
      expect(after[name]!.billed_ms - before[name]!.billed_ms).toBeGreaterThanOrEqual(after[name]!.invocations - before[name]!.invocations);
    }
  });

  it('shows sent messages in the local mailbox page', async () => {
    const account = await newAccount();
    const subject = `Mailbox <check> ${Date.now()}`;
    const send = await api('POST', '/emails', { key: account.key, body: { from: `a@${SANDBOX}`, to: account.email, subject, text: 't' } });
    await waitFor(async () => (await sesMessages({ email_id: send.body.id })).length > 0, 'message in mailbox');
    const page = await fetch(`${stack().apiUrl}/_local/ses`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(subject.replace('<', '&lt;').replace('>', '&gt;'));
  });

  it('filters the mailbox JSON on the server, without the bytes unless raw=1, and refuses an unknown filter', async () => {
    const account = await newAccount();
    const send = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 'filtered', text: 'the body' },
    });
    // Once its Delivery event is recorded too, so that the two filters below read the same summary.
    const [summary, ...others] = await waitFor(async () => {
      const found = await sesMessages({ email_id: send.body.id });
      return found.length > 0 && found[0]!.events.some((event) => event.type === 'Delivery') ? found : undefined;
    }, 'message and its Delivery event in the mailbox');
    expect(others).toEqual([]);
    expect(summary).toMatchObject({ to: [account.email.toLowerCase()], subject: 'filtered', tags: { email_id: send.body.id } });
    expect(summary).not.toHaveProperty('raw');
    expect(await sesMessages({ to: account.email })).toEqual([summary]);
    const [full] = await sesMessages({ email_id: send.body.id, raw: true });
    expect(full!.raw).toContain('the body');
    const refused = await api('GET', '/_local/ses/messages?email=x');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'validation_error', message: expect.stringContaining('unknown parameter "email"') });
  });

  it("runs from its bundles (npm start's launch.cjs): the stack's process, the relay task's, and every function in them", () => {
    const info = stack().info as LocalStackInfo;
    const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    expect(cmdline(info.pid)).toMatch(/localstack\/launch\.cjs/);
    expect(cmdline(info.smtp_pid!)).toMatch(/local-cloud-relay\.cjs/);
    const manifest = JSON.parse(readFileSync(join(CACHE, 'local-cloud.json'), 'utf8')) as { inputs: Record<string, string> };
    const bundled = functionEntries()
      .map((fn) => fn.entry)
      .filter((entry) => !(entry in manifest.inputs));
    expect(bundled).toEqual([]);
  });

  describe('sharing a DynamoDB Local (LOCAL_DYNAMODB_ENDPOINT, LOCAL_STACK_NAME)', () => {
    const own = stacksOfItsOwn('mailservice-shared-dynamo-');

    it('keeps its tables under its stack name in a database of its own, removes what a killed stack of that name left, and deletes its own on stop', async () => {
      const endpoint = process.env[OWN_STACKS_DYNAMODB_ENV]!;
      expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const { CreateTableCommand, DynamoDBClient, ListTablesCommand } = await import('@aws-sdk/client-dynamodb');
      const { LOCAL_CREDENTIALS, LOCAL_REGION } = await import('#localstack/cloud/constants');
      const { partitionKeyOf } = await import('#localstack/cloud/dynamodb/dynamodb-partition-proxy');
      const name = `Mailservice-share${Date.now().toString(36)}`;
      // The stack's database in the shared DynamoDB Local (started without -sharedDb): the one its access key names.
      const dynamo = new DynamoDBClient({
        endpoint,
        region: LOCAL_REGION,
        credentials: { ...LOCAL_CREDENTIALS, accessKeyId: partitionKeyOf(name) },
      });
      const others = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
      const tables = async (client: InstanceType<typeof DynamoDBClient>, prefix: string) =>
        ((await client.send(new ListTablesCommand({}))).TableNames ?? []).filter((table) => table.startsWith(prefix));
      // What a stack of this name killed mid-run would have left.
      await dynamo.send(
        new CreateTableCommand({
          TableName: `${name}-Leftover`,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        }),
      );
      try {
        own.running = await spawnStack({
          dataDir: own.dataDir,
          inMemory: true,
          env: { LOCAL_DYNAMODB_ENDPOINT: endpoint, LOCAL_STACK_NAME: name },
        });
        const info = readStackFile(own.dataDir)!;
        // Its functions reach it through the stack's partition proxy.
        expect(info.endpoints.dynamodb).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(info.endpoints.dynamodb).not.toBe(endpoint);
        expect(info.env.TABLE_NAME).toMatch(new RegExp(`^${name}-Data`));
        expect(await tables(dynamo, `${name}-`)).toEqual([info.env.TABLE_NAME]);
        // Another key's database does not hold it.
        expect(await tables(others, `${name}-`)).toEqual([]);
        const health = await call(own.running.apiUrl, 'GET', '/health');
        expect(health.body.components.dynamodb).toBe('up');
        expect(await own.running.stop('SIGINT')).toBe(0);
        own.running = undefined;
        expect(await tables(dynamo, `${name}-`)).toEqual([]);
      } finally {
        dynamo.destroy();
        others.destroy();
      }
    });

    it('refuses a data folder on disk with another DynamoDB Local, and a name CloudFormation would refuse', async () => {
      const endpoint = process.env[OWN_STACKS_DYNAMODB_ENV]!;
      await expect(spawnStack({ dataDir: own.dataDir, inMemory: false, env: { LOCAL_DYNAMODB_ENDPOINT: endpoint } })).rejects.toThrow(
        /LOCAL_DYNAMODB_ENDPOINT needs DATA_IN_MEMORY=1/,
      );
      await expect(
        spawnStack({ dataDir: own.dataDir, inMemory: true, ownDynamoDb: true, env: { LOCAL_STACK_NAME: '9-lives_stack' } }),
      ).rejects.toThrow(/LOCAL_STACK_NAME "9-lives_stack" is not a stack name/);
    });
  });

  describe('on a data folder', () => {
    const own = stacksOfItsOwn('mailservice-restart-');

    it('keeps accounts, keys and emails across a restart and stops without leftovers', async () => {
      own.running = await spawnStack({ dataDir: own.dataDir, inMemory: false });
      const info = readStackFile(own.dataDir)!;
      // Quiet, its four stream mappings share one read of the shard at most every 250 ms (4 a second; each
      // reading alone, 16): /health counts the GetRecords calls (localstack/cloud/streams/stream-shard-feed.ts).
      const streamReads = async () => (await call(own.running!.apiUrl, 'GET', '/health')).body.stream_reads as number;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const readsBefore = await streamReads();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const quietReads = (await streamReads()) - readsBefore;
      expect(quietReads).toBeGreaterThanOrEqual(2);
      expect(quietReads).toBeLessThanOrEqual(14);
      // Fixture through the CLI's path: the use case against this stack's DynamoDB.
      const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
      const { DynamoDBDocumentClient } = await import('@aws-sdk/lib-dynamodb');
      const { AccountRepository } = await import('#shared/adapters/store/accounts');
      const { ApiKeyRepository } = await import('#shared/adapters/store/api-keys');
      const { createAccount } = await import('#shared/usecases/access/accounts');
      const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region }));
      const table = { client, name: info.env.TABLE_NAME! };
      const { account, secret } = await createAccount(
        { accounts: new AccountRepository(table), apiKeys: new ApiKeyRepository(table), clock: { now: () => new Date() } },
        { email: 'persist@example.com', plan: 'free', paymentMethod: false, tenants: false },
      );
      client.destroy();

      // A body over 64 KB lives in the S3 emulator (in memory), which is snapshotted on a clean stop.
      const body = `persisted-${'y'.repeat(80 * 1024)}-end`;
      const send = await call(own.running.apiUrl, 'POST', '/emails', secret, {
        from: `a@${SANDBOX}`,
        to: account.email,
        subject: 'persist',
        text: body,
      });
      expect(send.status).toBe(200);
      await waitFor(
        async () => (await call(own.running!.apiUrl, 'GET', `/emails/${send.body.id}`, secret)).body.email.status === 'delivered',
        'delivered',
      );

      expect(await own.running.stop('SIGINT')).toBe(0);
      expect(processesMentioning(own.dataDir)).toEqual([]);
      expect(readStackFile(own.dataDir)).toBeNull();

      own.running = await spawnStack({ dataDir: own.dataDir, inMemory: false });
      const email = await call(own.running.apiUrl, 'GET', `/emails/${send.body.id}`, secret);
      expect(email.status).toBe(200);
      expect(email.body.email).toMatchObject({ id: send.body.id, status: 'delivered', subject: 'persist' });
      const mailbox = await call(own.running.apiUrl, 'GET', `/_local/ses/messages?email_id=${send.body.id}`);
      expect(mailbox.body.messages.map((m: any) => m.tags.email_id)).toEqual([send.body.id]);
      // The stored body came back too: a resend after the restart carries it.
      const resent = await call(own.running.apiUrl, 'POST', `/emails/${send.body.id}/resend`, secret);
      expect(resent.status).toBe(200);
      const resentMessage = await waitFor(async () => {
        const messages = (await call(own.running!.apiUrl, 'GET', `/_local/ses/messages?email_id=${resent.body.id}&raw=1`)).body.messages;
        return messages[0];
      }, 'resent message');
      const unfolded = resentMessage.raw.replace(/=\r\n/g, '');
      expect(unfolded).toContain('persisted-yyyy');
      expect(unfolded).toContain('y-end');

      // Killed without a chance to clean up: the watchdog still takes DynamoDB Local (Java) down.
      await own.running.stop('SIGKILL');
      own.running = undefined;
      await waitFor(async () => processesMentioning(own.dataDir).length === 0, 'java to exit after SIGKILL', 10_000, 100);
    });
  });
});
