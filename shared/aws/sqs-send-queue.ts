import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SendQueue } from '../ports';

export class SqsSendQueue implements SendQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: { email_id: string }): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) }));
  }
}
