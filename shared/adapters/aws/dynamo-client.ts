/** The DynamoDB document client (its own module: @aws-sdk/lib-dynamodb is not free of side effects, see ./client-options.ts). */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../../config/config';
import { clientOptions } from './client-options';
import { withClientHooks } from './client-hooks';

export function createDynamoClient(config: Config): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(withClientHooks(new DynamoDBClient(clientOptions(config, 'dynamodb'))), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}
