/**
 * The table of the synthesized template (localstack/cloud/template/), created under another name: a private
 * copy for tests that must not share the stack's table (no worker watches it).
 */
import { CreateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeployedStack } from '#localstack/cloud/template/deployed-stack';
import { ensureTable, type TableSpec } from '#localstack/cloud/template/deploy-table';
import { synthesizedTemplate } from '#localstack/cloud/template/synthesize';

export async function templateTableSpec(): Promise<TableSpec> {
  const { template } = await synthesizedTemplate();
  const stack = new DeployedStack(template, {
    stackName: 'Mailservice',
    region: 'us-east-1',
    accountId: '000000000000',
    apiUrl: 'http://127.0.0.1',
  });
  return stack.properties<TableSpec>(stack.ofType('AWS::DynamoDB::Table')[0]!);
}

export async function ensureTemplateTable(dynamo: DynamoDBClient, name: string): Promise<{ streamArn?: string }> {
  return ensureTable(dynamo, name, await templateTableSpec());
}

/** A table with the keys only, no index, no stream: as a data folder from before the outbox and the template deploy holds it, and all a use case's test of single items needs. */
export async function createKeysOnlyTable(dynamo: DynamoDBClient, name: string): Promise<void> {
  await dynamo.send(
    new CreateTableCommand({
      TableName: name,
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
}
