/** The SQS queues (each with its dead-letter queue) the workers consume and the functions send to. */
import { ENV } from '#shared/config/config';

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

export type QueueId = 'send' | 'sesEvents' | 'webhookEvents' | 'webhookDeliveries' | 'inbound' | 'automationSteps';

export const QUEUES: Record<QueueId, QueueDefinition> = {
  send: {
    id: 'send',
    name: 'mailservice-send-email',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-send-email-dlq',
    envVar: ENV.sendQueueUrl,
  },
  sesEvents: {
    id: 'sesEvents',
    name: 'mailservice-ses-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-ses-events-dlq',
    envVar: ENV.sesEventsQueueUrl,
  },
  /** Service events (email.*, ...) to fan out to subscribed webhook endpoints. */
  webhookEvents: {
    id: 'webhookEvents',
    name: 'mailservice-webhook-events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-events-dlq',
    envVar: ENV.webhookEventsQueueUrl,
  },
  /** One message per (endpoint, event) delivery attempt; retries are re-enqueued with a delay. */
  webhookDeliveries: {
    id: 'webhookDeliveries',
    name: 'mailservice-webhook-deliveries',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-webhook-deliveries-dlq',
    envVar: ENV.webhookDeliveriesQueueUrl,
  },
  /**
   * Inbound messages (docs/inbound.md): the MX listener stores the raw message in S3 and checks its
   * sender's SPF, DKIM and DMARC, then sends one message per receiving account with the results; the
   * inbound worker parses, records and publishes it.
   * The raw message stays in S3 whatever happens here, so a message in the DLQ is never lost.
   */
  inbound: {
    id: 'inbound',
    name: 'mailservice-inbound',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    dlqName: 'mailservice-inbound-dlq',
    envVar: ENV.inboundQueueUrl,
  },
  /**
   * Automation steps (docs/automations.md, "Runs"): `{run_id, step_index, wake?}` from the automation
   * outbox (a step left pending), from one-time schedules (a delay's end, a wait's timeout) and from the
   * reconciler. The worker claims each step with a conditional write, so duplicates do nothing.
   */
  automationSteps: {
    id: 'automationSteps',
    name: 'mailservice-automation-steps',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    dlqName: 'mailservice-automation-steps-dlq',
    envVar: ENV.automationStepsQueueUrl,
  },
};
