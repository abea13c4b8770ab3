/**
 * The AWS client factory: the only place that knows about endpoint overrides, so the same code runs
 * on AWS, on LocalStack and on the embedded local cloud. Clients are created once per cold start.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Config } from '../config';

type Service = keyof Config['endpoints'];

function options(config: Config, service: Service) {
  const endpoint = config.endpoints[service];
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    // Fail fast rather than hang on an unreachable endpoint.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15000 },
    maxAttempts: 3,
  };
}

export interface AwsClients {
  dynamo: DynamoDBDocumentClient;
  sqs: SQSClient;
  s3: S3Client;
  ses: SESv2Client;
  scheduler: SchedulerClient;
}

export function createAwsClients(config: Config): AwsClients {
  const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient(options(config, 'dynamodb')), {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return {
    dynamo,
    sqs: new SQSClient(options(config, 'sqs')),
    s3: new S3Client({ ...options(config, 's3'), forcePathStyle: Boolean(config.endpoints.s3) }),
    ses: new SESv2Client(options(config, 'ses')),
    scheduler: new SchedulerClient(options(config, 'scheduler')),
  };
}
