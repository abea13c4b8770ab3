/**
 * Provisions the local resources from infra/definitions.ts (the same definitions the CDK stack uses):
 * the table with its GSIs, TTL and stream, queues with DLQs and redrive, the stream workers' on-failure queues, topics with SQS subscriptions,
 * buckets, the SES configuration set with its SNS event destination, and the scheduler group.
 * Idempotent: a restart on an existing data folder keeps what exists.
 */
import { tlsRequiredConfigurationSet } from '../../shared/aws/ses-configuration-sets';
import type { DnsEmulator } from '../emulators/dns';
import { ensureVerifiedDomainIdentity } from './ses-verified-identity';
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { CreateScheduleGroupCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import {
  CreateConfigurationSetCommand,
  CreateConfigurationSetEventDestinationCommand,
  PutConfigurationSetSuppressionOptionsCommand,
  PutEmailIdentityFeedbackAttributesCommand,
  type EventType,
  type SESv2Client,
} from '@aws-sdk/client-sesv2';
import type { FauxqsServer } from 'fauxqs';
import { BUCKETS, CONFIGURATION_SET, QUEUES, SCHEDULE_GROUP, STREAM_WORKERS, TABLE, TOPICS } from '../../infra/definitions';
import { LOCAL_ACCOUNT_ID } from './constants';

export interface ProvisionedResources {
  tableName: string;
  /** The table's current stream (TABLE.stream), read by the stream workers. */
  streamArn?: string;
  /** On-failure queue of each stream worker, by worker name. */
  onFailureQueues: Record<string, { url: string; arn: string }>;
  queues: Record<string, { url: string; arn: string; dlqUrl: string; dlqArn: string }>;
  topics: Record<string, { arn: string }>;
  buckets: Record<string, string>;
  configurationSet: string;
  scheduleGroup: string;
  schedulerRoleArn: string;
  /** Environment variables the functions read (names from the definitions). */
  env: Record<string, string>;
}

/**
 * The table's stream as TABLE.stream says: enabled at creation, or on an existing table (a data folder
 * from before the outbox) with UpdateTable; a stream of another view type is replaced (a new stream
 * ARN: the stream workers start it from its beginning). Returns the stream ARN.
 */
async function ensureStream(dynamo: DynamoDBClient, table: TableDescription): Promise<string | undefined> {
  const wanted = TABLE.stream;
  const current = table.StreamSpecification;
  if (!wanted) return current?.StreamEnabled ? table.LatestStreamArn : undefined;
  if (current?.StreamEnabled && current.StreamViewType === wanted) return table.LatestStreamArn;
  if (current?.StreamEnabled) {
    await dynamo.send(new UpdateTableCommand({ TableName: table.TableName, StreamSpecification: { StreamEnabled: false } }));
  }
  const updated = await dynamo.send(new UpdateTableCommand({ TableName: table.TableName, StreamSpecification: { StreamEnabled: true, StreamViewType: wanted } }));
  return updated.TableDescription?.LatestStreamArn;
}

/**
 * Indexes added to TABLE after a data folder's table was created (e.g. GSI3, the tenant emails index)
 * are created on it with UpdateTable, one per call as DynamoDB requires. Items written before carry no
 * key of the new index, as on AWS when an index is added to a live table.
 */
async function ensureIndexes(dynamo: DynamoDBClient, table: TableDescription): Promise<void> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((gsi) => gsi.IndexName));
  for (const gsi of TABLE.globalSecondaryIndexes) {
    if (present.has(gsi.indexName)) continue;
    await dynamo.send(
      new UpdateTableCommand({
        TableName: table.TableName,
        AttributeDefinitions: [gsi.partitionKey, gsi.sortKey].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: gsi.indexName,
              KeySchema: [
                { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
                { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: gsi.projection ?? 'ALL' },
            },
          },
        ],
      }),
    );
  }
}

/** Creates (or brings up to date) the single table; `name` lets a test make a private copy no worker watches. */
export async function ensureTable(dynamo: DynamoDBClient, name: string = TABLE.name): Promise<{ streamArn?: string }> {
  try {
    const existing = await dynamo.send(new DescribeTableCommand({ TableName: name }));
    await ensureIndexes(dynamo, existing.Table!);
    return { streamArn: await ensureStream(dynamo, existing.Table!) };
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ResourceNotFoundException') throw error;
  }
  const attributes = new Set([TABLE.partitionKey, TABLE.sortKey, ...TABLE.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey])]);
  const created = await dynamo.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.globalSecondaryIndexes.map((gsi) => ({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: gsi.projection ?? 'ALL' },
      })),
      ...(TABLE.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.stream } } : {}),
    }),
  );
  await dynamo.send(
    new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: TABLE.timeToLiveAttribute, Enabled: true } }),
  );
  return { streamArn: created.TableDescription?.LatestStreamArn };
}

/**
 * `visibilityOverrideSeconds` (LOCAL_QUEUE_VISIBILITY_SECONDS) shortens every queue's visibility
 * timeout on the local cloud only, so tests see redelivery and DLQ redrive in seconds, not minutes.
 */
function provisionMessaging(fauxqs: FauxqsServer, visibilityOverrideSeconds?: number) {
  const queues: ProvisionedResources['queues'] = {};
  for (const queue of Object.values(QUEUES)) {
    const dlq = fauxqs.createQueue(queue.dlqName, { attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) } });
    const main = fauxqs.createQueue(queue.name, {
      attributes: {
        VisibilityTimeout: String(visibilityOverrideSeconds ?? queue.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: String(queue.maxReceiveCount) }),
      },
    });
    queues[queue.id] = { url: main.queueUrl, arn: main.queueArn, dlqUrl: dlq.queueUrl, dlqArn: dlq.queueArn };
  }
  const topics: ProvisionedResources['topics'] = {};
  for (const topic of Object.values(TOPICS)) {
    topics[topic.id] = { arn: fauxqs.createTopic(topic.name).topicArn };
    for (const queueId of topic.subscribedQueues) fauxqs.subscribe({ topic: topic.name, queue: QUEUES[queueId].name });
  }
  // Stream workers' on-failure destinations: descriptions of batches given up on (kept 14 days).
  const onFailureQueues: ProvisionedResources['onFailureQueues'] = {};
  for (const worker of STREAM_WORKERS) {
    const queue = fauxqs.createQueue(worker.onFailure.queueName, { attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) } });
    onFailureQueues[worker.name] = { url: queue.queueUrl, arn: queue.queueArn };
  }
  const buckets: Record<string, string> = {};
  for (const bucket of Object.values(BUCKETS)) {
    fauxqs.createBucket(bucket.name);
    buckets[bucket.id] = bucket.name;
  }
  return { queues, topics, buckets, onFailureQueues };
}

function ignoreExists(error: unknown): void {
  const name = error instanceof Error ? error.name : '';
  if (name !== 'AlreadyExistsException' && name !== 'ConflictException') throw error;
}

export async function provision(
  clients: { dynamo: DynamoDBClient; ses: SESv2Client; scheduler: SchedulerClient },
  fauxqs: FauxqsServer,
  options: {
    visibilityOverrideSeconds?: number;
    /** The sandbox sender's domain, made a verified SES identity with its DKIM records in this DNS (SES sends only from verified identities). */
    sandboxIdentity?: { domain: string; dns: Pick<DnsEmulator, 'setRecords'> };
  } = {},
): Promise<ProvisionedResources> {
  const { streamArn } = await ensureTable(clients.dynamo);
  const { queues, topics, buckets, onFailureQueues } = provisionMessaging(fauxqs, options.visibilityOverrideSeconds);
  const topicArn = topics[CONFIGURATION_SET.topic]!.arn;
  // The main set and its TLS-required twin (domains with tls_mode enforced), publishing the same events.
  const sets = [
    { name: CONFIGURATION_SET.name, options: {} },
    { name: tlsRequiredConfigurationSet(CONFIGURATION_SET.name), options: { DeliveryOptions: { TlsPolicy: 'REQUIRE' as const } } },
  ];
  for (const set of sets) {
    await clients.ses.send(new CreateConfigurationSetCommand({ ConfigurationSetName: set.name, ...set.options })).catch(ignoreExists);
    await clients.ses
      .send(
        new CreateConfigurationSetEventDestinationCommand({
          ConfigurationSetName: set.name,
          EventDestinationName: CONFIGURATION_SET.eventDestinationName,
          EventDestination: {
            Enabled: true,
            MatchingEventTypes: CONFIGURATION_SET.matchingEventTypes as EventType[],
            SnsDestination: { TopicArn: topicArn },
          },
        }),
      )
      .catch(ignoreExists);
    // SES's account-level suppression list off for our sets, as infra/constructs/email.ts does: we keep our
    // own lists per account and tenant (docs/suppressions.md). Set again on every start (a kept set too).
    await clients.ses.send(new PutConfigurationSetSuppressionOptionsCommand({ ConfigurationSetName: set.name, SuppressedReasons: [] }));
  }
  if (options.sandboxIdentity) {
    const { domain, dns } = options.sandboxIdentity;
    if (!(await ensureVerifiedDomainIdentity(clients.ses, dns, domain))) throw new Error(`the local SES did not verify the sandbox domain ${domain}`);
    // No bounce and complaint mail to sandbox senders: the events reach us (docs/deploy.md asks the operator the same).
    await clients.ses.send(new PutEmailIdentityFeedbackAttributesCommand({ EmailIdentity: domain, EmailForwardingEnabled: false }));
  }
  await clients.scheduler.send(new CreateScheduleGroupCommand({ Name: SCHEDULE_GROUP.name })).catch(ignoreExists);
  const schedulerRoleArn = `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/mailservice-scheduler`;

  const env: Record<string, string> = {
    [TABLE.envVar]: TABLE.name,
    [CONFIGURATION_SET.envVar]: CONFIGURATION_SET.name,
    [SCHEDULE_GROUP.envVar]: SCHEDULE_GROUP.name,
    [SCHEDULE_GROUP.roleEnvVar]: schedulerRoleArn,
    ...Object.fromEntries(SCHEDULE_GROUP.targetQueues.map((target) => [target.arnEnvVar, queues[target.queue]!.arn])),
  };
  for (const queue of Object.values(QUEUES)) env[queue.envVar] = queues[queue.id]!.url;
  for (const topic of Object.values(TOPICS)) env[topic.envVar] = topics[topic.id]!.arn;
  for (const bucket of Object.values(BUCKETS)) env[bucket.envVar] = bucket.name;
  for (const worker of STREAM_WORKERS) env[worker.onFailure.envVar] = onFailureQueues[worker.name]!.url;

  return {
    tableName: TABLE.name,
    streamArn,
    onFailureQueues,
    queues,
    topics,
    buckets,
    configurationSet: CONFIGURATION_SET.name,
    scheduleGroup: SCHEDULE_GROUP.name,
    schedulerRoleArn,
    env,
  };
}
