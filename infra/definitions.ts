/**
 * The one description of the service's cloud resources.
 *
 * Both the CDK stack (infra/stacks) and the embedded local cloud (localstack/) read this file, so the
 * table, queues, topics, buckets, API routes and worker event sources cannot drift between AWS and a
 * developer's machine. Plain data only: no CDK or AWS SDK imports here.
 *
 * Functions receive the physical names/URLs through the environment variables named here
 * (see shared/config.ts for the reader).
 */
import { DEFAULT_SETTINGS } from '../shared/settings';

export interface TableDefinition {
  /** Logical id in CDK; physical name locally. */
  name: string;
  partitionKey: string;
  sortKey: string;
  globalSecondaryIndexes: { indexName: string; partitionKey: string; sortKey: string }[];
  timeToLiveAttribute: string;
  envVar: string;
}

export const TABLE: TableDefinition = {
  name: 'mailservice-main',
  partitionKey: 'PK',
  sortKey: 'SK',
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ],
  timeToLiveAttribute: 'ttl',
  envVar: 'TABLE_NAME',
};

export interface QueueDefinition {
  /** Key used by workers and grants. */
  id: QueueId;
  name: string;
  visibilityTimeoutSeconds: number;
  /** Receives after which a message moves to the DLQ. */
  maxReceiveCount: number;
  dlqName: string;
  /** Environment variable carrying the queue URL. */
  envVar: string;
}

export type QueueId = 'send' | 'sesEvents' | 'webhookEvents' | 'webhookDeliveries';

export const QUEUES: Record<QueueId, QueueDefinition> = {
  send: {
    id: 'send',
    name: 'mailservice-send-email',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-send-email-dlq',
    envVar: 'SEND_QUEUE_URL',
  },
  sesEvents: {
    id: 'sesEvents',
    name: 'mailservice-ses-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-ses-events-dlq',
    envVar: 'SES_EVENTS_QUEUE_URL',
  },
  /** Service events (email.*, ...) to fan out to subscribed webhook endpoints. */
  webhookEvents: {
    id: 'webhookEvents',
    name: 'mailservice-webhook-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-events-dlq',
    envVar: 'WEBHOOK_EVENTS_QUEUE_URL',
  },
  /** One message per (endpoint, event) delivery attempt; retries are re-enqueued with a delay. */
  webhookDeliveries: {
    id: 'webhookDeliveries',
    name: 'mailservice-webhook-deliveries',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-deliveries-dlq',
    envVar: 'WEBHOOK_DELIVERIES_QUEUE_URL',
  },
};

export type TopicId = 'sesEvents';

export interface TopicDefinition {
  id: TopicId;
  name: string;
  /** Queues subscribed to the topic (SNS -> SQS, not raw delivery: bodies are SNS envelopes). */
  subscribedQueues: QueueId[];
  envVar: string;
}

export const TOPICS: Record<TopicId, TopicDefinition> = {
  sesEvents: {
    id: 'sesEvents',
    name: 'mailservice-ses-events',
    subscribedQueues: ['sesEvents'],
    envVar: 'SES_EVENTS_TOPIC_ARN',
  },
};

export type BucketId = 'mail';

export interface BucketDefinition {
  id: BucketId;
  /** Physical name locally; CDK lets AWS name it. */
  name: string;
  envVar: string;
}

export const BUCKETS: Record<BucketId, BucketDefinition> = {
  mail: { id: 'mail', name: 'mailservice-mail', envVar: 'MAIL_BUCKET' },
};

/** SES configuration set every outbound message is sent with; its event destination is the SES events topic. */
export const CONFIGURATION_SET = {
  name: 'mailservice-outbound',
  eventDestinationName: 'to-sns',
  topic: 'sesEvents' as TopicId,
  /** SESv2 MatchingEventTypes. */
  matchingEventTypes: ['SEND', 'DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT', 'OPEN', 'CLICK'],
  envVar: 'SES_CONFIGURATION_SET',
};

/** EventBridge Scheduler group holding one-time schedules (scheduled sends, retries, automation delays). */
export const SCHEDULE_GROUP = {
  name: 'mailservice',
  envVar: 'SCHEDULE_GROUP',
  /** Role the scheduler assumes to send to SQS targets. */
  roleEnvVar: 'SCHEDULER_ROLE_ARN',
  /** Queue the schedules deliver into: the only queue the scheduler role may send to. */
  targetQueue: 'send' as QueueId,
  /** Environment variable carrying the target queue's ARN (a schedule's Target.Arn). */
  targetQueueArnEnvVar: 'SCHEDULER_TARGET_QUEUE_ARN',
};

/**
 * The key that encrypts stored secrets (DKIM private keys, webhook signing secrets): KMS in AWS, a local
 * key file on the embedded cloud.
 */
export const SECRETS_KEY = {
  alias: 'alias/mailservice-secrets',
  /** KMS key ARN in AWS. */
  envVar: 'SECRETS_KEY_ID',
  /** Path of the local key file on the embedded cloud (32 random bytes, created on first start). */
  localFileEnvVar: 'LOCAL_SECRETS_KEY_FILE',
};

export type Resource =
  | { kind: 'table' }
  | { kind: 'queue'; id: QueueId }
  | { kind: 'topic'; id: TopicId }
  | { kind: 'bucket'; id: BucketId }
  | { kind: 'ses' }
  | { kind: 'scheduler' }
  | { kind: 'secretsKey' };

/** Access a function needs to a resource; CDK turns these into least-privilege grants. */
export type Access =
  | 'read'
  | 'readWrite'
  | 'send'
  | 'consume'
  | 'publish'
  | 'sendEmail'
  /** SES: create, read, delete and configure (BYODKIM, MAIL FROM) the account's email identities. */
  | 'manageIdentities'
  | 'schedule'
  | 'encrypt'
  | 'decrypt'
  | 'encryptDecrypt';

export interface Grant {
  resource: Resource;
  access: Access;
}

export interface ApiGroupDefinition {
  /** Group name; also the Lambda's logical id suffix. */
  name: string;
  /** Entry file (relative to the project root) exporting `handler`. */
  entry: string;
  /**
   * HTTP API routes (API Gateway syntax) sent to this group's Lambda. The local runtime routes
   * exactly these, so a path missing here is a 404 locally as in AWS.
   */
  routes: string[];
  grants: Grant[];
}

export const API_GROUPS: ApiGroupDefinition[] = [
  {
    name: 'emails',
    entry: 'functions/api/emails/handler.ts',
    routes: ['ANY /emails', 'ANY /emails/{proxy+}'],
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'send' }, access: 'send' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'readWrite' },
      // Scheduled sends: one-time schedules targeting the send queue.
      { resource: { kind: 'scheduler' }, access: 'schedule' },
      // email.scheduled, email.suppressed and POST /emails/test events.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'api-keys',
    entry: 'functions/api/api-keys/handler.ts',
    routes: ['ANY /api-keys', 'ANY /api-keys/{proxy+}'],
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
  {
    name: 'domains',
    entry: 'functions/api/domains/handler.ts',
    routes: ['ANY /domains', 'ANY /domains/{proxy+}'],
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // New domains get an encrypted DKIM key; verification decrypts it to sign a probe.
      { resource: { kind: 'secretsKey' }, access: 'encryptDecrypt' },
      // A verified domain becomes an SES identity (BYODKIM with its key, MAIL FROM rp.<domain>); deleting removes it.
      { resource: { kind: 'ses' }, access: 'manageIdentities' },
    ],
  },
  {
    name: 'webhooks',
    entry: 'functions/api/webhooks/handler.ts',
    routes: ['ANY /webhooks', 'ANY /webhooks/{proxy+}'],
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      // Signing secrets are sealed at creation.
      { resource: { kind: 'secretsKey' }, access: 'encrypt' },
      // Replays re-enqueue a delivery.
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ],
  },
  {
    name: 'suppressions',
    entry: 'functions/api/suppressions/handler.ts',
    routes: ['ANY /suppressions', 'ANY /suppressions/{proxy+}'],
    grants: [{ resource: { kind: 'table' }, access: 'readWrite' }],
  },
];

export interface WorkerDefinition {
  name: string;
  entry: string;
  queue: QueueId;
  batchSize: number;
  /**
   * Concurrent invocations the event source may run (Lambda's maximum concurrency, 2-1000; unset = no
   * cap). The local runtime runs this many pollers (default 2).
   */
  maxConcurrency?: number;
  /** Lambda timeout; must stay below the queue's visibility timeout. */
  timeoutSeconds: number;
  grants: Grant[];
}

export const WORKERS: WorkerDefinition[] = [
  {
    name: 'send-email',
    entry: 'functions/workers/send-email/handler.ts',
    queue: 'send',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'send' }, access: 'consume' },
      { resource: { kind: 'bucket', id: 'mail' }, access: 'read' },
      { resource: { kind: 'ses' }, access: 'sendEmail' },
      // DKIM-signs with the domain's key.
      { resource: { kind: 'secretsKey' }, access: 'decrypt' },
      // email.failed when SES refuses a message for good.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'ses-events',
    entry: 'functions/workers/ses-events/handler.ts',
    queue: 'sesEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'sesEvents' }, access: 'consume' },
      // email.sent/delivered/bounced/... events.
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'send' },
    ],
  },
  {
    name: 'webhook-router',
    entry: 'functions/workers/webhook-router/handler.ts',
    queue: 'webhookEvents',
    batchSize: 10,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'webhookEvents' }, access: 'consume' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
    ],
  },
  {
    name: 'webhook-delivery',
    entry: 'functions/workers/webhook-delivery/handler.ts',
    queue: 'webhookDeliveries',
    // One delivery per invocation, many at once: a slow or dead endpoint (10 s timeout) holds one
    // invocation and never delays other endpoints or events.
    batchSize: 1,
    maxConcurrency: 20,
    timeoutSeconds: 30,
    grants: [
      { resource: { kind: 'table' }, access: 'readWrite' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'consume' },
      { resource: { kind: 'queue', id: 'webhookDeliveries' }, access: 'send' },
      { resource: { kind: 'secretsKey' }, access: 'decrypt' },
    ],
  },
];

/** Settings (not resources) every function reads from the environment, with their defaults. */
export const SETTINGS = DEFAULT_SETTINGS;
