/**
 * DynamoDB Local on disk keeps every acknowledged write across SIGKILL.
 *
 * Without the commit barrier (localstack/cloud/dynamodb/dynamodb-commit-barrier.ts), DynamoDB Local answers
 * TransactWriteItems before its COMMIT has run; killing Java the moment an answer arrives lost that
 * transaction in 4 of 6 tries. Here the JVM is SIGKILLed at that very moment (the barrier's
 * fault-injection point, when Java's answer to a transaction arrives) while eight writers are busy;
 * the instance is restarted on the same folder, and every acknowledged item must be there.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal, type DynamoDbLocal } from '#localstack/cloud/dynamodb/dynamodb';
import { needsCommitBarrier } from '#localstack/cloud/dynamodb/dynamodb-commit-barrier';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#localstack/cloud/constants';

const TABLE = 'durability';
const ROUNDS = 3;
const WRITERS = 8;

let dataDir: string;
let local: DynamoDbLocal | undefined;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ddb-durability-'));
});

afterAll(async () => {
  await local?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function clientFor(instance: DynamoDbLocal): DynamoDBClient {
  return new DynamoDBClient({ endpoint: instance.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
}

/** The JVM serving this folder (only ours has it on its command line). */
function javaPid(): number {
  const pids = execFileSync('pgrep', ['-f', '--', `^java .*-dbPath ${dataDir}`])
    .toString()
    .trim()
    .split(/\s+/);
  expect(pids).toHaveLength(1);
  return Number(pids[0]);
}

/** Kills the JVM synchronously when armed, from inside the barrier, as Java's answer arrives. */
const fault = { armed: false, fired: false, pid: 0 };
function startLocal(): Promise<DynamoDbLocal> {
  return startDynamoDbLocal({
    dataDir,
    onTransactionAnswered: () => {
      if (!fault.armed || fault.fired) return;
      fault.fired = true;
      process.kill(fault.pid, 'SIGKILL');
    },
  });
}

test('only transactions are held for their commit', () => {
  expect(needsCommitBarrier('DynamoDB_20120810.TransactWriteItems')).toBe(true);
  expect(needsCommitBarrier('DynamoDB_20120810.ExecuteTransaction')).toBe(true);
  expect(needsCommitBarrier('DynamoDB_20120810.PutItem')).toBe(false);
  expect(needsCommitBarrier(undefined)).toBe(false);
});

test(`every acknowledged write survives SIGKILL of DynamoDB Local (${ROUNDS} kills)`, async () => {
  local = await startLocal();
  let client = clientFor(local);
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  const acknowledged: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let sequence = 0;
    const armAt = acknowledged.length + 40 + Math.floor(Math.random() * 120);
    Object.assign(fault, { armed: false, fired: false, pid: javaPid() });
    const writer = async (writerId: number) => {
      while (!fault.fired) {
        const id = `r${round}-w${writerId}-${sequence++}`;
        const transaction = sequence % 4 !== 0;
        try {
          if (transaction) {
            await client.send(
              new TransactWriteItemsCommand({
                TransactItems: [
                  { Put: { TableName: TABLE, Item: { pk: { S: id } } } },
                  { Put: { TableName: TABLE, Item: { pk: { S: `${id}#pair` } } } },
                ],
              }),
            );
          } else {
            await client.send(new PutItemCommand({ TableName: TABLE, Item: { pk: { S: id } } }));
          }
        } catch {
          return; // not acknowledged: may or may not have been written
        }
        acknowledged.push(id);
        if (acknowledged.length >= armAt) fault.armed = true;
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, writerId) => writer(writerId)));
    client.destroy();
    expect(fault.fired).toBe(true);
    await local.stop();
    local = await startLocal();
    client = clientFor(local);
  }
  const missing: string[] = [];
  for (const id of acknowledged) {
    const found = await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: { S: id } }, ConsistentRead: true }));
    if (!found.Item) missing.push(id);
  }
  client.destroy();
  expect(acknowledged.length).toBeGreaterThan(ROUNDS * 40);
  expect(missing).toEqual([]);
}, 120_000);
