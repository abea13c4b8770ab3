/** The automation-steps queue on SQS: 10 messages per SendMessageBatch; any refused entry throws. */
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { AutomationStepMessage } from '../../domain/messages';
import type { AutomationStepQueue } from '../../ports/queues';
import { sendAllOrThrow } from './sqs-batch';

export class SqsAutomationStepQueue implements AutomationStepQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  enqueueAll(messages: AutomationStepMessage[]): Promise<void> {
    return sendAllOrThrow(this.sqs, this.queueUrl, messages, 'automation steps');
  }
}
