import { SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsMessageBody } from './sqs-message-body';
import type { SendMessage } from '../../domain/messages';
import { logError } from '../../lib/log';
import type { SendQueue } from '../../ports/queues';
import { SQS_BATCH_LIMIT } from './sqs-batch';

export class SqsSendQueue implements SendQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async enqueue(message: SendMessage): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: sqsMessageBody(message) }));
  }

  /** Puts a held send back, visible after `delaySeconds` (0-900: SQS's DelaySeconds; usecases/send/deliver-paced.ts). */
  async requeue(message: SendMessage, delaySeconds: number): Promise<void> {
    await this.sqs.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: sqsMessageBody(message), DelaySeconds: delaySeconds }),
    );
  }

  /**
   * SendMessageBatch, 10 entries per call, the calls in parallel. An entry SQS reports as failed, and
   * every entry of a call that failed as a whole, is answered in `failed` (never thrown).
   */
  async enqueueMany(messages: SendMessage[]): Promise<{ failed: number[] }> {
    const chunks: number[][] = [];
    for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
      chunks.push(messages.slice(start, start + SQS_BATCH_LIMIT).map((_, i) => start + i));
    }
    const failed = await Promise.all(
      chunks.map(async (positions) => {
        try {
          const result = await this.sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: this.queueUrl,
              Entries: positions.map((position) => ({ Id: String(position), MessageBody: sqsMessageBody(messages[position]) })),
            }),
          );
          const accepted = new Set((result.Successful ?? []).map((entry) => Number(entry.Id)));
          for (const entry of result.Failed ?? []) {
            logError('send queue refused a message', new Error(entry.Message ?? entry.Code ?? 'failed'), {
              code: entry.Code,
              sender_fault: entry.SenderFault,
              email_id: messages[Number(entry.Id)]?.email_id,
            });
          }
          return positions.filter((position) => !accepted.has(position));
        } catch (error) {
          logError('send queue batch failed', error, { count: positions.length });
          return positions;
        }
      }),
    );
    return { failed: failed.flat() };
  }
}
