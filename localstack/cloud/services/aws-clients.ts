/**
 * The local cloud's own SDK clients (the local keys, two attempts): the deploy creates the template's
 * resources with them, the start verifies the sandbox sender with SES's, and /health probes each service.
 * Destroyed when the cloud stops.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../constants';
import type { LocalEndpoints } from './local-endpoints';
import type { StartContext } from '../stack/start-context';

export interface LocalClients {
  dynamo: DynamoDBClient;
  ses: SESv2Client;
  scheduler: SchedulerClient;
  sqs: SQSClient;
  kms: KMSClient;
}

export function localClients(ctx: StartContext, endpoints: LocalEndpoints): LocalClients {
  const clientOptions = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 2 };
  const clients: LocalClients = {
    dynamo: new DynamoDBClient({ ...clientOptions, endpoint: endpoints.dynamodb }),
    ses: new SESv2Client({ ...clientOptions, endpoint: endpoints.sesv2 }),
    scheduler: new SchedulerClient({ ...clientOptions, endpoint: endpoints.scheduler }),
    sqs: new SQSClient({ ...clientOptions, endpoint: endpoints.sqs }),
    kms: new KMSClient({ ...clientOptions, endpoint: endpoints.kms }),
  };
  ctx.stops.add(async () => {
    for (const client of Object.values(clients)) client.destroy();
  });
  return clients;
}
