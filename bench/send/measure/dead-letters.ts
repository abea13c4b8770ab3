/** The dead-letter queues after the run: each worker queue's DLQ by name, with its depth. */
import { GetQueueUrlCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueueDefinitionLike } from '../checkout';
import type { PipelineProbe } from '../../lib/pipeline-drain';

export async function deadLetterDepths(
  control: SQSClient,
  queues: QueueDefinitionLike[],
  pipeline: PipelineProbe,
): Promise<Record<string, number>> {
  const dlqDepths: Record<string, number> = {};
  for (const queue of queues) {
    try {
      const { QueueUrl } = await control.send(new GetQueueUrlCommand({ QueueName: queue.dlqName }));
      dlqDepths[queue.dlqName] = await pipeline.queueDepth(QueueUrl!);
    } catch {
      // a queue without a DLQ
    }
  }
  return dlqDepths;
}
