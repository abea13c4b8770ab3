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
import { Route53Client } from '@aws-sdk/client-route-53';
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

/**
 * A Route 53 client for DNS apply (docs/domains.md, "DNS apply"): with the credentials a request gave
 * (or stored for the account), or, without, the function's own (its role in AWS; the local cloud's
 * keys locally, where AWS_ENDPOINT_URL_ROUTE_53 points at the Route 53 emulator). One per request.
 */
export function createRoute53Client(config: Config, credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null): Route53Client {
  return new Route53Client({
    ...options(config, 'route53'),
    ...(credentials ? { credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey, ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}) } } : {}),
  });
}
