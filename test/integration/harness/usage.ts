/** Reading and presetting usage counters in the real table (fixtures for limit tests). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/store/keys';
import { stack } from './stack';

function documentClient() {
  const { info } = stack();
  return DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.endpoints.dynamodb, region: info.region }));
}

export const today = () => new Date().toISOString().slice(0, 10);
export const month = () => today().slice(0, 7);

export async function setUsage(accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string, count: number) {
  const client = documentClient();
  await client.send(
    new UpdateCommand({
      TableName: stack().info.env.TABLE_NAME,
      Key: keys.usage(accountId, scope, period, value),
      UpdateExpression: 'SET #count = :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':count': count },
    }),
  );
  client.destroy();
}

export async function usage(accountId: string, scope: string, period: 'DAY' | 'MONTH', value: string): Promise<number> {
  const client = documentClient();
  const result = await client.send(new GetCommand({ TableName: stack().info.env.TABLE_NAME, Key: keys.usage(accountId, scope, period, value), ConsistentRead: true }));
  client.destroy();
  return result.Item?.count ?? 0;
}

