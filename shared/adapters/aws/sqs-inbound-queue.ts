import type { SQSClient } from '@aws-sdk/client-sqs';
import type { CheckedInboundMessage } from '../../domain/messages';
import type { InboundQueue } from '../../ports/queues';
import { sendAllOrThrow } from './sqs-batch';

/**
 * The inbound queue on SQS. Any message SQS did not accept makes the call throw: the MX listener then
 * answers 451, discards the stored raw message (queue messages of it that got through are dropped by the
 * worker) and the sending server tries again; a message queued twice makes one record, its id being
 * chosen before queuing.
 */
export class SqsInboundQueue implements InboundQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  enqueueAll(messages: CheckedInboundMessage[]): Promise<void> {
    return sendAllOrThrow(this.sqs, this.queueUrl, messages, 'inbound messages');
  }
}
