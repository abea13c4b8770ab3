/**
 * The SQS queues functions send to (one SQS client): send, webhook events and deliveries, inbound, automation steps.
 * Service events go out only for accounts with a webhook endpoint (shared/usecases/webhooks/subscribed-events.ts).
 */
import { createSqsClient } from '../adapters/aws/sqs-client';
import { SqsAutomationStepQueue } from '../adapters/aws/sqs-automation-step-queue';
import { SqsEventPublisher } from '../adapters/aws/sqs-event-publisher';
import { SqsInboundQueue } from '../adapters/aws/sqs-inbound-queue';
import { SqsSendQueue } from '../adapters/aws/sqs-send-queue';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs-webhook-delivery-queue';
import { WebhookPresence } from '../adapters/store/webhook-presence';
import type { Table } from '../adapters/store/table';
import { ENV, required, type Config } from '../config/config';
import { publishToSubscribers } from '../usecases/webhooks/subscribed-events';

type SqsClient = ReturnType<typeof createSqsClient>;
/** What the queues are built on: the configuration and, for the events' endpoint check, the table. */
type MessagingPlatform = { config: Config; table: Table };

/** Each queue a function may send to, by the name its deps use, and the setting that holds its URL. */
const QUEUES = {
  sendQueue: { url: 'sendQueueUrl', make: (sqs: SqsClient, url: string) => new SqsSendQueue(sqs, url) },
  /** Service events (email.*, ...) to the webhook events queue, of accounts with an endpoint only. */
  events: {
    url: 'webhookEventsQueueUrl',
    make: (sqs: SqsClient, url: string, platform: MessagingPlatform) =>
      publishToSubscribers(new SqsEventPublisher(sqs, url), new WebhookPresence(platform.table, platform.config.hotLookupsCacheMs)),
  },
  webhookDeliveryQueue: { url: 'webhookDeliveriesQueueUrl', make: (sqs: SqsClient, url: string) => new SqsWebhookDeliveryQueue(sqs, url) },
  /** The MX listener's hand-over to the inbound worker. */
  inboundQueue: { url: 'inboundQueueUrl', make: (sqs: SqsClient, url: string) => new SqsInboundQueue(sqs, url) },
  /** The automation-steps queue (a run's step is due). */
  stepQueue: { url: 'automationStepsQueueUrl', make: (sqs: SqsClient, url: string) => new SqsAutomationStepQueue(sqs, url) },
} as const;

type QueueName = keyof typeof QUEUES;
export type MessagingServices = { [K in QueueName]: ReturnType<(typeof QUEUES)[K]['make']> };

/** The named queues only, each URL required (a missing setting fails the cold start, not a send). */
export function buildQueues<K extends QueueName>(platform: MessagingPlatform, names: readonly K[]): Pick<MessagingServices, K> {
  const { config } = platform;
  const sqs = createSqsClient(config);
  const queues: Partial<Record<QueueName, unknown>> = {};
  for (const name of names) {
    const { url, make } = QUEUES[name];
    queues[name] = make(sqs, required(config, url, ENV[url]), platform);
  }
  return queues as Pick<MessagingServices, K>;
}

/** Every queue (their URLs as configured). */
export function buildMessaging(platform: MessagingPlatform): MessagingServices {
  const sqs = createSqsClient(platform.config);
  const queues = Object.entries(QUEUES).map(([name, { url, make }]) => [name, make(sqs, platform.config[url], platform)]);
  return Object.fromEntries(queues) as MessagingServices;
}
