/**
 * The floors: the calls one accepted send costs, issued directly with the product's own SDK clients
 * (shared/adapters/aws/clients.ts: same keep-alive, timeouts, retries), with no HTTP API and no use case. The email
 * item is a copy of one the API just wrote (email-copies.ts), so the pipeline delivers the floors' emails
 * as the API's.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateQueueCommand, DeleteQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Outcome } from '../../lib/load';
import type { BenchSdk } from '../bench-sdk';
import { loadFrom, MOVED } from '../checkout';
import type { FloorName } from '../options';
import { emailCopier } from './email-copies';
import type { FloorContext } from './floor-context';
import type { FloorRun } from './floor-run';
import { newFloor, newPutFloor } from './new-floors';
import { oldFloor } from './old-floor';
import { floorSteps } from './steps';

export type Floors = Record<FloorName, FloorRun> & { close(): Promise<void> };

export async function makeFloors(context: {
  root: string;
  config: { tableName: string; region: string };
  account: { id: string };
  secret: string;
  domainName: string;
  conditionCheck: boolean;
  benchSdk?: BenchSdk;
  apiSend(n: number): Promise<Outcome & { id?: string }>;
  recipient(n: number): string;
}): Promise<Floors> {
  const { createAwsClients } = loadFrom(context.root, MOVED.clients);
  const { hashSecret } = loadFrom(context.root, 'shared/domain/api-keys/secret');
  const { keys } = loadFrom(context.root, MOVED.keys);
  const { transactWrite } = loadFrom(context.root, MOVED.table);
  const { newId } = loadFrom(context.root, 'shared/domain/ids');
  const clients = createAwsClients(context.config) as { dynamo: DynamoDBDocumentClient; sqs: SQSClient };
  context.benchSdk?.tag(clients.dynamo, 'bench');
  context.benchSdk?.tag(clients.sqs, 'bench');
  const tableName = context.config.tableName;
  const doc = clients.dynamo;
  const emailItem = await emailCopier({ tableName, doc, keys, newId, apiSend: context.apiSend, recipient: context.recipient });

  // The old path's SendMessage goes to a scratch queue: the outbox relay already enqueues the email.
  const { QueueUrl: sinkUrl } = await clients.sqs.send(new CreateQueueCommand({ QueueName: `bench-old-floor-sink-${Date.now()}` }));

  const floorContext: FloorContext = {
    tableName,
    doc,
    sqs: clients.sqs,
    keys,
    transactWrite,
    keyHash: hashSecret(context.secret),
    accountId: context.account.id,
    domainName: context.domainName,
    recipient: context.recipient,
    emailItem,
  };
  const steps = floorSteps(context.conditionCheck);
  return {
    old: oldFloor(floorContext, steps.old, sinkUrl!),
    new: newFloor(floorContext, steps.new, context.conditionCheck),
    'new-put': newPutFloor(floorContext, steps['new-put']),
    close: async () => {
      await clients.sqs.send(new DeleteQueueCommand({ QueueUrl: sinkUrl })).catch(() => undefined);
      clients.sqs.destroy();
      (doc as unknown as { destroy(): void }).destroy();
    },
  };
}
