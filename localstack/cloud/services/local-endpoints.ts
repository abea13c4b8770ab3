/**
 * Where each local service answers, once the data stores and emulators are up: for the local cloud's own
 * clients (./aws-clients.ts), the functions' AWS_ENDPOINT_URL_* (../cloud.ts) and stack.json's `endpoints`.
 * SQS, SNS and S3 are one server (fauxqs).
 */
import type { DataStores } from './data-stores';
import type { LocalEmulators } from './local-emulators';

export interface LocalEndpoints {
  dynamodb: string;
  sqs: string;
  sns: string;
  s3: string;
  sesv2: string;
  scheduler: string;
  kms: string;
  acm: string;
  apigatewayv2: string;
  /** `host:port` (UDP and TCP), as DNS_RESOLVERS names it. */
  dns: string;
}

export function localEndpoints(stores: DataStores, emulators: LocalEmulators): LocalEndpoints {
  const fauxqs = stores.fauxqsEndpoint;
  return {
    dynamodb: stores.dynamo.endpoint,
    sqs: fauxqs,
    sns: fauxqs,
    s3: fauxqs,
    sesv2: emulators.ses.url,
    scheduler: emulators.scheduler.url,
    kms: emulators.kms.url,
    acm: emulators.acm.url,
    apigatewayv2: emulators.apigatewayv2.url,
    dns: emulators.dns.address,
  };
}
