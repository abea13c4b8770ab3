/**
 * The AWS client factories: the only place that knows about endpoint overrides, so the same code runs on
 * AWS, on LocalStack and on the embedded local cloud. One factory per client, so a function's composition
 * root (shared/services/) builds, and its bundle holds, only the clients it uses: the @aws-sdk client
 * packages here are free of side effects (an import left unused leaves the bundle). DynamoDB's document
 * client is not (@aws-sdk/lib-dynamodb): it has a module of its own, ./dynamo-client.ts. ./clients.ts
 * builds them all at once. Each client goes through ./client-hooks.ts (no hook in production; the local
 * cloud's IAM enforcement otherwise).
 */
import { ACMClient } from '@aws-sdk/client-acm';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { Route53Client } from '@aws-sdk/client-route-53';
import { S3Client } from '@aws-sdk/client-s3';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../../config/config';
import { withClientHooks } from './client-hooks';
import { REQUEST_HANDLER_OPTIONS } from './request-handler';
import { RetryUnlessThrottled } from './retry-unless-throttled';

type Service = keyof Config['endpoints'];

/** Region, the endpoint override if any, fail-fast timeouts, 3 attempts: every client's options. */
export function clientOptions(config: Config, service: Service) {
  const endpoint = config.endpoints[service];
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    requestHandler: REQUEST_HANDLER_OPTIONS,
    maxAttempts: 3,
  };
}

export function createSqsClient(config: Config): SQSClient {
  return withClientHooks(new SQSClient(clientOptions(config, 'sqs')));
}

export function createS3Client(config: Config): S3Client {
  return withClientHooks(new S3Client({ ...clientOptions(config, 's3'), forcePathStyle: Boolean(config.endpoints.s3) }));
}

export function createSesClient(config: Config): SESv2Client {
  return withClientHooks(new SESv2Client(clientOptions(config, 'ses')));
}

/**
 * The SES client that sends (SendEmail only): SES's throttling is not retried by the SDK but handed to the
 * send worker, which paces to SES's rate and holds a throttled email (shared/usecases/delivery/pace.ts).
 */
export function createSesSendClient(config: Config): SESv2Client {
  const options = clientOptions(config, 'ses');
  return withClientHooks(new SESv2Client({ ...options, retryStrategy: new RetryUnlessThrottled(options.maxAttempts) }));
}

export function createSchedulerClient(config: Config): SchedulerClient {
  return withClientHooks(new SchedulerClient(clientOptions(config, 'scheduler')));
}

/**
 * A Route 53 client for DNS apply (docs/domains.md, "DNS apply"): with the credentials a request gave
 * (or stored for the account), or, without, the function's own (its role in AWS; the local cloud's
 * keys locally, where AWS_ENDPOINT_URL_ROUTE_53 points at the Route 53 emulator). One per request.
 */
export function createRoute53Client(
  config: Config,
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null,
): Route53Client {
  const client = new Route53Client({
    ...clientOptions(config, 'route53'),
    ...(credentials
      ? {
          credentials: {
            accessKeyId: credentials.accessKeyId,
            secretAccessKey: credentials.secretAccessKey,
            ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
          },
        }
      : {}),
  });
  // A customer's keys are not the function's role: the local IAM enforcement leaves such a client alone.
  return withClientHooks(client, { explicitCredentials: credentials !== null });
}

/** ACM: the certificates of hosted MTA-STS policy hosts (docs/deliverability.md, "Hosted MTA-STS policy"). */
export function createAcmClient(config: Config): ACMClient {
  return withClientHooks(new ACMClient(clientOptions(config, 'acm')));
}

/** API Gateway (v2): the custom domain names of hosted MTA-STS policy hosts and their API mappings. */
export function createApiGatewayV2Client(config: Config): ApiGatewayV2Client {
  return withClientHooks(new ApiGatewayV2Client(clientOptions(config, 'apigatewayv2')));
}
