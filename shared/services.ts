/**
 * The composition root: builds clients, adapters and repositories once per cold start (not per
 * request). Entry points take what they need from here.
 */
import { loadConfig, type Config } from './config';
import { createAwsClients } from './aws/clients';
import { S3BlobStore } from './aws/s3-blob-store';
import { SesMailer } from './aws/ses-mailer';
import { SqsSendQueue } from './aws/sqs-send-queue';
import { systemClock, type Clock } from './ports';
import { AccountRepository } from './store/accounts';
import { ApiKeyRepository } from './store/api-keys';
import { EmailRepository } from './store/emails';

export function buildServices(config: Config = loadConfig()) {
  const clients = createAwsClients(config);
  const table = { client: clients.dynamo, name: config.tableName };
  const clock: Clock = systemClock;
  return {
    config,
    clock,
    sandboxDomain: config.sandboxDomain,
    accounts: new AccountRepository(table),
    apiKeys: new ApiKeyRepository(table),
    emails: new EmailRepository(table),
    sendQueue: new SqsSendQueue(clients.sqs, config.sendQueueUrl),
    blobs: new S3BlobStore(clients.s3, config.mailBucket),
    mailer: new SesMailer(clients.ses, config.sesConfigurationSet),
  };
}

export type Services = ReturnType<typeof buildServices>;
