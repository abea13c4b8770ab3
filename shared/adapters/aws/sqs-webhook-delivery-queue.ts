import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsMessageBody } from './sqs-message-body';
import type { WebhookDeliveryMessage } from '../../domain/messages';
import type { WebhookDeliveryQueue } from '../../ports/queues';

/** SQS's largest per-message delay. */
const MAX_DELAY_SECONDS = 900;

export class SqsWebhookDeliveryQueue implements WebhookDeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: WebhookDeliveryMessage, delaySeconds: number): Promise<void> {
    const delay = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
    await this.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: sqsMessageBody(message),
        ...(delay > 0 ? { DelaySeconds: delay } : {}),
      }),
    );
  }
}
