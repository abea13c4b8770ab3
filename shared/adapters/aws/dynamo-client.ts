/**
 * The DynamoDB document client (./client-options.ts), in a module of its own as every client: @aws-sdk/lib-dynamodb is
 * not free of side effects, so a bundle that imports this module keeps it whether it builds the client or not.
 */
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
