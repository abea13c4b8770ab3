/**
 * Every client the factories build drops the SDK's logger middleware (shared/adapters/aws/client-hooks.ts): it
 * copies each call's input and output through the sensitive-data filter for a logger that writes nothing.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { createS3Client } from '#shared/adapters/aws/s3-client';
import { createSesSendClient } from '#shared/adapters/aws/ses-clients';
import { createSqsClient } from '#shared/adapters/aws/sqs-client';
import { loadConfig } from '#shared/config/config';

const config = loadConfig({ AWS_REGION: 'us-east-1' });
const loggers = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify().filter((name) => name.startsWith('loggerMiddleware'));

describe("the SDK's logging", () => {
  it('is not on any client the factories build, the document client included', () => {
    const dynamo: DynamoDBDocumentClient = createDynamoClient(config);
    for (const client of [dynamo, createSqsClient(config), createS3Client(config), createSesSendClient(config)])
      expect(loggers(client)).toEqual([]);
  });
});
