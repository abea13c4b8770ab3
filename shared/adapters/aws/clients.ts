/**
 * Every AWS client at once (the full composition root, scripts, tests), with the factories re-exported.
 * Functions build only the clients they use, from each client's module (./client-options.ts lists them)
 * (through shared/services/). Clients are created once per cold start.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../config/config';
import { createS3Client } from './s3-client';
import { createSchedulerClient } from './scheduler-client';
import { createSesClient } from './ses-clients';
import { createSqsClient } from './sqs-client';
import { createDynamoClient } from './dynamo-client';

export { clientOptions } from './client-options';
export { createRoute53Client } from './route53-client';
export { createS3Client } from './s3-client';
export { createSchedulerClient } from './scheduler-client';
export { createSesClient } from './ses-clients';
export { createSqsClient } from './sqs-client';
export { createDynamoClient } from './dynamo-client';

export interface AwsClients {
  dynamo: DynamoDBDocumentClient;
  sqs: SQSClient;
  s3: S3Client;
  ses: SESv2Client;
  scheduler: SchedulerClient;
}

export function createAwsClients(config: Config): AwsClients {
  return {
    dynamo: createDynamoClient(config),
    sqs: createSqsClient(config),
    s3: createS3Client(config),
    ses: createSesClient(config),
    scheduler: createSchedulerClient(config),
  };
}
