/**
 * An AWS::DynamoDB::Table of the template on DynamoDB Local: created as CloudFormation creates it (the
 * properties are CreateTable's: https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-dynamodb-table.html),
 * or brought up to date on a kept data folder: indexes added since are created with UpdateTable, one per
 * call as DynamoDB requires (items written before carry no key of the new index, as on AWS when an index
 * is added to a live table); a stream of another view type is replaced (a new stream ARN: the stream
 * workers start it from its beginning). Returns the table's stream ARN.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type KeySchemaElement,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';

/** The table's resolved template properties the local cloud reads. */
export interface TableSpec {
  AttributeDefinitions: AttributeDefinition[];
  KeySchema: KeySchemaElement[];
  GlobalSecondaryIndexes?: GlobalSecondaryIndex[];
  BillingMode?: 'PAY_PER_REQUEST' | 'PROVISIONED';
  StreamSpecification?: { StreamViewType: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' | 'KEYS_ONLY' | 'OLD_IMAGE' };
  TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
}

async function ensureStream(dynamo: DynamoDBClient, spec: TableSpec, table: TableDescription): Promise<string | undefined> {
  const wanted = spec.StreamSpecification?.StreamViewType;
  const current = table.StreamSpecification;
  if (!wanted) return current?.StreamEnabled ? table.LatestStreamArn : undefined;
  if (current?.StreamEnabled && current.StreamViewType === wanted) return table.LatestStreamArn;
  if (current?.StreamEnabled)
    await dynamo.send(new UpdateTableCommand({ TableName: table.TableName, StreamSpecification: { StreamEnabled: false } }));
  const updated = await dynamo.send(
    new UpdateTableCommand({ TableName: table.TableName, StreamSpecification: { StreamEnabled: true, StreamViewType: wanted } }),
  );
  return updated.TableDescription?.LatestStreamArn;
}

/** DynamoDB creates one index at a time: wait until the one being created is ACTIVE before the next (or 60 s). */
async function untilIndexesActive(dynamo: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((gsi) => gsi.IndexStatus === undefined || gsi.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`the indexes of ${tableName} did not become ACTIVE within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function ensureIndexes(dynamo: DynamoDBClient, spec: TableSpec, table: TableDescription): Promise<void> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((gsi) => gsi.IndexName));
  for (const gsi of spec.GlobalSecondaryIndexes ?? []) {
    if (present.has(gsi.IndexName)) continue;
    const names = new Set(gsi.KeySchema?.map((key) => key.AttributeName));
    await dynamo.send(
      new UpdateTableCommand({
        TableName: table.TableName,
        AttributeDefinitions: spec.AttributeDefinitions.filter((a) => names.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: gsi.IndexName, KeySchema: gsi.KeySchema, Projection: gsi.Projection } }],
      }),
    );
    await untilIndexesActive(dynamo, table.TableName!);
  }
}

/** Creates the table `name` as the spec says, or brings an existing one up to date; returns its stream ARN. */
export async function ensureTable(dynamo: DynamoDBClient, name: string, spec: TableSpec): Promise<{ streamArn?: string }> {
  try {
    const existing = await dynamo.send(new DescribeTableCommand({ TableName: name }));
    await ensureIndexes(dynamo, spec, existing.Table!);
    return { streamArn: await ensureStream(dynamo, spec, existing.Table!) };
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ResourceNotFoundException') throw error;
  }
  const created = await dynamo.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: spec.BillingMode ?? 'PROVISIONED',
      AttributeDefinitions: spec.AttributeDefinitions,
      KeySchema: spec.KeySchema,
      GlobalSecondaryIndexes: spec.GlobalSecondaryIndexes?.map((gsi) => ({
        IndexName: gsi.IndexName,
        KeySchema: gsi.KeySchema,
        Projection: gsi.Projection,
      })),
      ...(spec.BillingMode === 'PAY_PER_REQUEST' ? {} : { ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 } }),
      ...(spec.StreamSpecification
        ? { StreamSpecification: { StreamEnabled: true, StreamViewType: spec.StreamSpecification.StreamViewType } }
        : {}),
    }),
  );
  if (spec.TimeToLiveSpecification?.Enabled) {
    await dynamo.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: spec.TimeToLiveSpecification.AttributeName, Enabled: true },
      }),
    );
  }
  return { streamArn: created.TableDescription?.LatestStreamArn };
}
