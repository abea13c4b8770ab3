/**
 * SNS's deliveries to SQS authorized as AWS does (`snsDeliveryCheck`, ../iam/service-deliveries.ts): a
 * queue whose policy refuses the topic does not get the message, which is lost for that subscription
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-message-delivery-retries.html); the publisher is not told.
 *
 * fauxqs fans a Publish out inside the request, synchronously, looking each subscribed queue up with its
 * SQS store's getQueueByArn and skipping a queue it does not find (as it skips a deleted one). So the SQS
 * store is extended (./fauxqs-classes.ts): while a Publish runs (`during`, called by ./fauxqs-hooks.ts
 * around fauxqs's handler), a queue the check refuses is not found. SQS's own lookups run outside any
 * Publish and are IAM's business.
 */
import type { MessageSpy, SqsQueue, SqsStore } from './fauxqs-classes';

/** Decides each SNS delivery to a queue: true, or why SNS may not deliver. */
export type SnsDeliveryCheck = (topicArn: string, queueArn: string) => true | string;

export class SnsDeliveryGate {
  private checking: { check: SnsDeliveryCheck; log: (message: string) => void } | null = null;
  private publishingTopic: string | undefined;

  /** Checks every delivery from now on (null: deliver all, fauxqs's own behaviour). */
  authorize(check: SnsDeliveryCheck | null, log: (message: string) => void = () => undefined): void {
    this.checking = check ? { check, log } : null;
  }

  /** Runs fauxqs's handling of a Publish to `topicArn` (synchronous up to the end of its fan-out) with the gate up. */
  during<T>(topicArn: string, run: () => T): T {
    this.publishingTopic = topicArn;
    try {
      return run();
    } finally {
      this.publishingTopic = undefined;
    }
  }

  /** Whether a lookup of `queueArn` may find the queue now. */
  allows(queueArn: string): boolean {
    if (!this.publishingTopic || !this.checking) return true;
    const verdict = this.checking.check(this.publishingTopic, queueArn);
    if (verdict === true) return true;
    this.checking.log(`sns: dropped a message of ${this.publishingTopic} for its subscription ${queueArn}: ${verdict}`);
    return false;
  }
}

/** fauxqs's SQS store with the gate on its getQueueByArn, handing `spy` to every queue it creates. */
export function createCheckedSqsStore(Base: new () => SqsStore, gate: SnsDeliveryGate, spy: MessageSpy): SqsStore {
  class Checked extends Base {
    override getQueueByArn(arn: string): SqsQueue | undefined {
      const queue = super.getQueueByArn(arn);
      return queue && gate.allows(arn) ? queue : undefined;
    }
  }
  const store = new Checked();
  store.spy = spy;
  return store;
}
