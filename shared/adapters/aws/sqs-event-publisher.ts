import type { SQSClient } from '@aws-sdk/client-sqs';
import type { ServiceEventMessage } from '../../domain/messages';
import type { EventPublisher } from '../../ports/events';
import { sendAllOrThrow } from './sqs-batch';

/** Events go to the webhook events queue in batches of 10 (SQS's maximum); any refused one throws. */
export class SqsEventPublisher implements EventPublisher {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  publish(events: ServiceEventMessage[]): Promise<void> {
    return sendAllOrThrow(this.sqs, this.queueUrl, events, 'events');
  }
}
