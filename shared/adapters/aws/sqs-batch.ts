import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { sqsMessageBody } from './sqs-message-body';

/** SendMessageBatch takes at most 10 entries. */
export const SQS_BATCH_LIMIT = 10;

/**
 * Every message to the queue as JSON, 10 per SendMessageBatch, one call after another. Any entry SQS
 * does not accept makes it throw (naming `what`), so the caller's work is retried as a whole.
 */
export async function sendAllOrThrow(sqs: SQSClient, queueUrl: string, messages: readonly unknown[], what: string): Promise<void> {
  for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
    const chunk = messages.slice(start, start + SQS_BATCH_LIMIT);
    const result = await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: sqsMessageBody(message) })),
      }),
    );
    const failed = result.Failed ?? [];
    if (failed.length)
      throw new Error(
        `could not queue ${failed.length} of ${chunk.length} ${what}: ${failed.map((entry) => entry.Code ?? entry.Message ?? 'unknown error').join(', ')}`,
      );
  }
}
