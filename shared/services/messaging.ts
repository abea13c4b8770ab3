/** The SQS queues functions send to (one SQS client): send, webhook events and deliveries, inbound, automation steps. */
import { createSqsClient } from '../adapters/aws/client-factories';
import { SqsAutomationStepQueue } from '../adapters/aws/sqs-automation-step-queue';
import { SqsEventPublisher } from '../adapters/aws/sqs-event-publisher';
import { SqsInboundQueue } from '../adapters/aws/sqs-inbound-queue';
import { SqsSendQueue } from '../adapters/aws/sqs-send-queue';
import { SqsWebhookDeliveryQueue } from '../adapters/aws/sqs-webhook-delivery-queue';
import type { Config } from '../config/config';

export function buildMessaging(config: Config) {
  const sqs = createSqsClient(config);
  return {
    sendQueue: new SqsSendQueue(sqs, config.sendQueueUrl),
    /** Service events (email.*, ...) to the webhook events queue. */
    events: new SqsEventPublisher(sqs, config.webhookEventsQueueUrl),
    webhookDeliveryQueue: new SqsWebhookDeliveryQueue(sqs, config.webhookDeliveriesQueueUrl),
    /** The MX listener's hand-over to the inbound worker. */
    inboundQueue: new SqsInboundQueue(sqs, config.inboundQueueUrl),
    /** The automation-steps queue (a run's step is due). */
    stepQueue: new SqsAutomationStepQueue(sqs, config.automationStepsQueueUrl),
  };
}

export type MessagingServices = ReturnType<typeof buildMessaging>;
