/**
 * A data folder from before the local cloud deployed the template (its table `mailservice-main`, queues and
 * bucket under infra/definitions' names) keeps its resources: the template's resources take those names,
 * matched by construct path, and cloudformation.json records them for the next starts
 * (localstack/cloud/template/stack-state.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createKeysOnlyTable } from '../support/template-table';
import { BUCKETS, QUEUES, TABLE } from '#infra/definitions';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#localstack/cloud/constants';
import { startDynamoDbLocal } from '#localstack/cloud/dynamodb/dynamodb';
import { readStackFile } from '#localstack/cloud/stack/stack-file';
import { STATE_FILE } from '#localstack/cloud/template/stack-state';
import { spawnStack, type SpawnedStack } from './harness/spawn-stack';

describe('a data folder from before the template deploy (stack of its own, on disk)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mailservice-legacy-'));
  let own: SpawnedStack | undefined;

  beforeAll(async () => {
    // What the old provisioning left: the table under its old name, with no index or stream yet.
    const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    await createKeysOnlyTable(client, TABLE.name);
    client.destroy();
    await dynamo.stop();
    expect(existsSync(join(dataDir, STATE_FILE))).toBe(false);
    own = await spawnStack({ dataDir, inMemory: false, timeoutMs: 120_000, env: { WEBHOOK_CA_FILE: '' } });
  }, 180_000);

  afterAll(async () => {
    await own?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('deploys the template onto the old names, brings the table up to date, and records the names', async () => {
    const { resources, endpoints } = readStackFile(dataDir)!;
    expect(resources).toMatchObject({
      table: TABLE.name,
      queues: { send: { name: QUEUES.send.name, dlqName: QUEUES.send.dlqName }, inbound: { name: QUEUES.inbound.name } },
      buckets: { mail: BUCKETS.mail.name },
    });
    const client = new DynamoDBClient({ endpoint: endpoints.dynamodb, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    const { Table } = await client.send(new DescribeTableCommand({ TableName: TABLE.name }));
    client.destroy();
    expect(Table!.GlobalSecondaryIndexes!.map((gsi) => gsi.IndexName).sort()).toEqual(
      TABLE.globalSecondaryIndexes.map((gsi) => gsi.indexName).sort(),
    );
    expect(Table!.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: TABLE.stream });
    const state = JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')) as { physicalNames: Record<string, string> };
    expect(Object.values(state.physicalNames)).toEqual(expect.arrayContaining([TABLE.name, QUEUES.send.name, BUCKETS.mail.name]));
    // The service works on it.
    expect((await fetch(`${own!.apiUrl}/health`)).status).toBe(200);
  });
});
