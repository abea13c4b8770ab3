import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceEventMessage } from '../domain/messages';
import type { EventPublisher } from '../ports';

/** Events go to the webhook events queue in batches of 10 (SQS's maximum). */
export class SqsEventPublisher implements EventPublisher {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async publish(events: ServiceEventMessage[]): Promise<void> {
    for (let start = 0; start < events.length; start += 10) {
      const chunk = events.slice(start, start + 10);
      const result = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map((event, index) => ({ Id: String(index), MessageBody: JSON.stringify(event) })),
        }),
      );
      if (result.Failed?.length) throw new Error(`could not queue ${result.Failed.length} events: ${result.Failed[0]?.Message ?? 'unknown error'}`);
    }
  }
}
