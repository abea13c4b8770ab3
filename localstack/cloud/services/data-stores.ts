/**
 * The local cloud's data stores, started first: DynamoDB Local (../dynamodb/dynamodb.ts) and fauxqs, SQS, SNS and S3
 * in one server (./fauxqs.ts). Unless in memory, queued messages and stored objects are journaled before
 * fauxqs answers, so they survive a kill (docs/local-cloud/messaging.md); the journal restores them once
 * the template's queues and buckets exist again.
 */
import { join } from 'node:path';
import { startDynamoDbLocal, useRunningDynamoDbLocal, type DynamoDbLocal } from '../dynamodb/dynamodb';
import type { LocalMessaging } from '../messaging/local-messaging';
import { startFauxqsServer } from './fauxqs';
import { MessagingJournal } from '../messaging/messaging-journal';
import { stackNameOf } from '../stack/stack-name';
import type { StartContext } from '../stack/start-context';

export interface DataStores {
  dynamo: DynamoDbLocal;
  fauxqs: LocalMessaging;
  /** Absent when in memory. */
  journal?: MessagingJournal;
  /** fauxqs's endpoint: SQS's, SNS's and S3's. */
  fauxqsEndpoint: string;
}

export async function startDataStores(ctx: StartContext): Promise<DataStores> {
  const { options, host, log } = ctx;
  if (options.dynamodbEndpoint && !options.inMemory)
    throw new Error('LOCAL_DYNAMODB_ENDPOINT needs DATA_IN_MEMORY=1: a data folder keeps its own DynamoDB Local');
  const [dynamo, fauxqs] = await Promise.all([
    options.dynamodbEndpoint
      ? useRunningDynamoDbLocal(options.dynamodbEndpoint, stackNameOf(options), host)
      : startDynamoDbLocal({ port: options.ports?.dynamodb, dataDir: ctx.persistDir('dynamodb'), host }),
    startFauxqsServer({ port: options.ports?.fauxqs ?? 0, host: 'localhost' }),
  ]);
  ctx.stops.add(() => dynamo.stop());
  const messagingDir = ctx.persistDir('messaging');
  const journal = messagingDir ? MessagingJournal.open(messagingDir, fauxqs, log, join(ctx.dataDir, 'messaging.json')) : undefined;
  ctx.stops.add(async () => {
    journal?.close();
    await fauxqs.stop();
  });
  return { dynamo, fauxqs, journal, fauxqsEndpoint: `http://${host}:${fauxqs.port}` };
}

/** Puts back what the journal kept (after the deploy made the queues and buckets again). */
export function restoreMessaging(stores: DataStores, log: (message: string) => void): void {
  if (!stores.journal) return;
  const restored = stores.journal.restore();
  if (restored.messages || restored.objects) log(`restored ${restored.messages} queued messages and ${restored.objects} stored objects`);
}
