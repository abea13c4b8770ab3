/**
 * The other resources besides the table (./table.ts) and the queues (./queues.ts): the SNS topic of SES's events,
 * the mail bucket, SES's configuration set, the EventBridge Scheduler group and the key of stored secrets.
 */
import { ENV } from '#shared/config/config';
import type { QueueId } from './queues';

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
    envVar: ENV.sesEventsTopicArn,
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
  mail: { id: 'mail', name: 'mailservice-mail', envVar: ENV.mailBucket },
};

/** SES configuration set every outbound message is sent with; its event destination is the SES events topic. */
export const CONFIGURATION_SET = {
  name: 'mailservice-outbound',
  eventDestinationName: 'to-sns',
  topic: 'sesEvents' as TopicId,
  /**
   * SESv2 MatchingEventTypes. Never OPEN or CLICK: with either, SES adds its own pixel and rewrites every
   * link of every HTML part, raw messages included (docs/local-cloud/ses.md "Tracking"); the service's
   * own tracking (docs/tracking.md) is the only one.
   */
  matchingEventTypes: ['DELIVERY', 'BOUNCE', 'COMPLAINT', 'DELIVERY_DELAY', 'REJECT'],
  envVar: ENV.sesConfigurationSet,
};

/** EventBridge Scheduler group holding one-time schedules (scheduled sends, automation delays and wait timeouts). */
export const SCHEDULE_GROUP = {
  name: 'mailservice',
  envVar: ENV.scheduleGroup,
  /** Role the scheduler assumes to send to SQS targets. */
  roleEnvVar: ENV.schedulerRoleArn,
  /**
   * Queues the schedules deliver into (the only ones the scheduler role may send to), each with the
   * environment variable carrying its ARN (a schedule's Target.Arn): scheduled emails into the send
   * queue, waiting automation steps into the automation-steps queue.
   */
  targetQueues: [
    { queue: 'send' as QueueId, arnEnvVar: ENV.schedulerTargetQueueArn },
    { queue: 'automationSteps' as QueueId, arnEnvVar: ENV.automationStepsQueueArn },
  ],
};

/**
 * The key that encrypts stored secrets (DKIM private keys, webhook signing secrets): KMS in AWS, a local
 * key file on the embedded cloud.
 */
export const SECRETS_KEY = {
  alias: 'alias/mailservice-secrets',
  /** KMS key ARN in AWS. */
  envVar: ENV.secretsKeyId,
  /** Path of the local key file on the embedded cloud (32 random bytes, created on first start). */
  localFileEnvVar: ENV.localSecretsKeyFile,
};
