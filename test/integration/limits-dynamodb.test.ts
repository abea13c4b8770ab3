/**
 * DynamoDB's limits (docs/deploy.md, "AWS limits"), on the stack's DynamoDB Local, in a table of this
 * test's own:
 *
 * - What DynamoDB Local enforces, pinned (so an emulator upgrade that stops enforcing one is noticed):
 *   item size 400 KB (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html),
 *   TransactWriteItems 100 actions and 4 MB, BatchGetItem 100 keys (16 MB answered as UnprocessedKeys),
 *   BatchWriteItem 25 requests, Query pages of 1 MB (LastEvaluatedKey).
 * - What the product does there: its BatchGetItem and Query helpers (shared/adapters/store/batch-get.ts,
 *   shared/adapters/store/table.ts queryAll) read everything past the 16 MB and 1 MB cuts; a template at every
 *   limit, published with a draft at every limit (the largest item the product writes), is stored and read.
 */
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS } from '#localstack/cloud/constants';
import { TEMPLATE_LIMITS } from '#shared/domain/templates/template';
import { batchGetItems } from '#shared/adapters/store/batch-get';
import { queryAll, type Table } from '#shared/adapters/store/table';
import { api, newAccount, stack } from './harness/stack';

jest.setTimeout(120_000);

const ITEM_MAX_BYTES = 400 * 1024;
let raw: DynamoDBClient;
let table: Table;

beforeAll(async () => {
  raw = new DynamoDBClient({ endpoint: stack().info.endpoints.dynamodb, region: stack().info.region, credentials: LOCAL_CREDENTIALS });
  table = { client: DynamoDBDocumentClient.from(raw), name: `limits-${Date.now().toString(36)}` };
  await raw.send(
    new CreateTableCommand({
      TableName: table.name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  // 50 items of 390 KB in one partition: 19.5 MB, over BatchGetItem's 16 MB and many Query pages of 1 MB.
  for (let i = 0; i < 50; i++)
    await table.client.send(
      new PutCommand({ TableName: table.name, Item: { PK: 'big', SK: `s${String(i).padStart(3, '0')}`, d: 'x'.repeat(390 * 1024) } }),
    );
});

afterAll(async () => {
  await raw.send(new DeleteTableCommand({ TableName: table.name }));
  raw.destroy();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: Error) => `${error.name}: ${error.message}`,
  );
const keys = (n: number, pk = 'none') => Array.from({ length: n }, (_, i) => ({ PK: pk, SK: `s${String(i).padStart(3, '0')}` }));

describe('DynamoDB Local enforces', () => {
  it('the 400 KB item size (names and values counted)', async () => {
    // PK(2) + 'a'(1) + SK(2) + 'b'(1) + d(1) = 7 bytes besides the value.
    expect(
      await refusal(
        table.client.send(new PutCommand({ TableName: table.name, Item: { PK: 'a', SK: 'b', d: 'x'.repeat(ITEM_MAX_BYTES - 7) } })),
      ),
    ).toBe('accepted');
    expect(
      await refusal(
        table.client.send(new PutCommand({ TableName: table.name, Item: { PK: 'a', SK: 'c', d: 'x'.repeat(ITEM_MAX_BYTES - 6) } })),
      ),
    ).toMatch(/^ValidationException: Item size has exceeded the maximum allowed size/);
  });

  it('TransactWriteItems: 100 actions, 4 MB', async () => {
    const puts = (n: number, size: number) =>
      Array.from({ length: n }, (_, i) => ({ Put: { TableName: table.name, Item: { PK: 't', SK: `s${i}`, d: 'x'.repeat(size) } } }));
    expect(await refusal(table.client.send(new TransactWriteCommand({ TransactItems: puts(100, 1) })))).toBe('accepted');
    expect(await refusal(table.client.send(new TransactWriteCommand({ TransactItems: puts(101, 1) })))).toMatch(
      /^ValidationException: .*less than or equal to 100/,
    );
    expect(await refusal(table.client.send(new TransactWriteCommand({ TransactItems: puts(11, 390 * 1024) })))).toMatch(
      /^ValidationException: Transaction payload size cannot exceed 4MB/,
    );
  });

  it('BatchGetItem 100 keys and BatchWriteItem 25 requests', async () => {
    expect(await refusal(table.client.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys(100) } } })))).toBe('accepted');
    expect(await refusal(table.client.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys(101) } } })))).toMatch(
      /^ValidationException: Too many items requested for the BatchGetItem call/,
    );
    const writes = (n: number) => keys(n, 'w').map((Item) => ({ PutRequest: { Item } }));
    expect(await refusal(table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: writes(25) } })))).toBe('accepted');
    expect(await refusal(table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: writes(26) } })))).toMatch(
      /^ValidationException: Too many items requested for the BatchWriteItem call/,
    );
  });

  it('BatchGetItem answers at most 16 MB, the rest as UnprocessedKeys', async () => {
    const result = await table.client.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys(50, 'big') } } }));
    expect(result.Responses?.[table.name]?.length).toBeLessThan(50);
    expect(result.UnprocessedKeys?.[table.name]?.Keys?.length).toBe(50 - result.Responses![table.name]!.length);
  });
});

describe('the product at those limits', () => {
  it('batchGetItems reads all 50 items of 390 KB (past the 16 MB cut) and 250 keys (past 100 per call)', async () => {
    const found = await batchGetItems(table, [...keys(50, 'big'), ...keys(200, 'absent')]);
    expect(found.map((item) => item.SK).sort()).toEqual(keys(50, 'big').map((key) => key.SK));
  });

  it('queryAll reads past the 1 MB Query page', async () => {
    const found = await queryAll(
      table,
      { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'big' } },
      (item) => item.SK as string,
    );
    expect(found).toHaveLength(50);
  });

  it('stores and reads a template with a published version and a draft at every size limit (its largest item)', async () => {
    const account = await newAccount({ plan: 'pro' });
    // 3-byte characters: the limits count UTF-8 bytes.
    const body = (bytes: number, mark: string) => mark + '€'.repeat(Math.floor((bytes - mark.length) / 3));
    const full = (mark: string) => ({
      subject: `S${mark}`.padEnd(TEMPLATE_LIMITS.subjectChars, 's'),
      html: body(TEMPLATE_LIMITS.htmlBytes, `<p>${mark}`),
      text: body(TEMPLATE_LIMITS.textBytes, mark),
    });
    const created = await api('POST', '/templates', {
      key: account.key,
      body: { alias: 'largest', name: 'N'.repeat(TEMPLATE_LIMITS.nameChars), ...full('1') },
    });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    expect((await api('POST', '/templates/largest/publish', { key: account.key })).status).toBe(200);
    const drafted = await api('PATCH', '/templates/largest', { key: account.key, body: full('2') });
    expect([drafted.status, drafted.body.error]).toEqual([200, undefined]);
    const read = await api('GET', '/templates/largest', { key: account.key });
    expect(read.body.template).toMatchObject({ status: 'published', has_unpublished_changes: true, html: full('2').html });
    // One byte over the html limit is the caller's 400, never DynamoDB's refusal (a 500).
    const over = await api('PATCH', '/templates/largest', {
      key: account.key,
      body: { html: `${body(TEMPLATE_LIMITS.htmlBytes, '<p>3')}x` },
    });
    expect([over.status, over.body.error?.code]).toEqual([400, 'validation_error']);
  });
});
