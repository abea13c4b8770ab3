/**
 * Ports: the work queues use cases hand messages to (SQS in AWS: shared/adapters/aws/sqs-*.ts). Each takes its
 * queue's message type (shared/domain/messages.ts).
 */
import type { AutomationStepMessage, CheckedInboundMessage, SendMessage, WebhookDeliveryMessage } from '../domain/messages';

/** The send queue: one message per email to hand to the send worker (`sendMessageSchema`). */
export interface SendQueue {
  enqueue(message: SendMessage): Promise<void>;
  /**
   * Many messages in as few calls as the queue allows (the outbox relay). Answers the positions (in
   * `messages`) of those the queue did not accept; the others are enqueued.
   */
  enqueueMany(messages: SendMessage[]): Promise<{ failed: number[] }>;
}

/**
 * The webhook deliveries queue: one message per delivery attempt to hand to the delivery worker,
 * optionally delayed (retries, at most 900 s per SQS message). The message is `webhookDeliveryMessageSchema`'s.
 */
export interface WebhookDeliveryQueue {
  enqueue(message: WebhookDeliveryMessage, delaySeconds: number): Promise<void>;
}

/** The inbound queue: the MX listener hands each stored message (one per receiving account) to the inbound worker. */
export interface InboundQueue {
  /** All or nothing as far as the caller knows: throws when any message was not accepted. */
  enqueueAll(messages: CheckedInboundMessage[]): Promise<void>;
}

/** The automation-steps queue: a run's step is due (`automationStepMessageSchema`). */
export interface AutomationStepQueue {
  /** All or nothing as far as the caller knows: throws when any message was not accepted. */
  enqueueAll(messages: AutomationStepMessage[]): Promise<void>;
}
