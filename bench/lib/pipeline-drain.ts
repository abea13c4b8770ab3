/**
 * The pipeline behind the API, seen from its worker queues: a queue's depth (visible, in flight and
 * delayed), the backlog of all of them, and the drain between phases: every worker queue empty for 5
 * checks in a row, 100 ms apart (covers the SES emulator's 20 ms outcome delay), at most 300 s.
 */
import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface PipelineProbe {
  queueDepth(url: string): Promise<number>;
  /** Messages in every worker queue. */
  backlog(): Promise<number>;
  /** Waits until the pipeline is drained; answers how long it took (ms). */
  drain(): Promise<number>;
}

/** `control`: the bench's own SQS client (not a call of the service: never delayed); `log` hears a drain that gave up. */
export function pipelineProbe(
  control: SQSClient,
  workerQueueUrls: string[],
  log: (message: string) => void = (message) => console.error(message),
): PipelineProbe {
  const queueDepth = async (url: string) => {
    const { Attributes = {} } = await control.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
      }),
    );
    return (
      Number(Attributes.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
      Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
    );
  };
  const backlog = async () => (await Promise.all(workerQueueUrls.map(queueDepth))).reduce((a, b) => a + b, 0);
  const drain = async (): Promise<number> => {
    const startedAt = performance.now();
    let quiet = 0;
    while (quiet < 5) {
      if (performance.now() - startedAt > 300_000) {
        log('pipeline did not drain within 300 s; continuing');
        break;
      }
      quiet = (await backlog()) === 0 ? quiet + 1 : 0;
      await sleep(100);
    }
    return performance.now() - startedAt;
  };
  return { queueDepth, backlog, drain };
}
