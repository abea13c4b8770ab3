import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { InboundMessage } from '../domain/messages';
import type { InboundQueue } from '../ports';
import { SQS_BATCH_LIMIT } from './sqs-send-queue';

/**
 * The inbound queue on SQS: SendMessageBatch, 10 per call. Any entry SQS did not accept makes the whole
 * call throw: the MX listener then answers 451 and the sending server tries again (the raw message
 * stays stored; a message queued twice makes one record, its id being chosen before queuing).
 */
export class SqsInboundQueue implements InboundQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueueAll(messages: InboundMessage[]): Promise<void> {
    for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
      const chunk = messages.slice(start, start + SQS_BATCH_LIMIT);
      const result = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((message, i) => ({ Id: String(i), MessageBody: JSON.stringify(message) })),
        }),
      );
      const failed = result.Failed ?? [];
      if (failed.length) throw new Error(`the inbound queue refused ${failed.length} of ${chunk.length} messages: ${failed.map((entry) => entry.Code ?? entry.Message).join(', ')}`);
    }
  }
}
