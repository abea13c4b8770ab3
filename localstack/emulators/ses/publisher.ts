/**
 * Publishes SES event records to SNS topics, one ordered pipeline per message.
 *
 * Steps of one message run strictly in order (Send, then the outcome events after a delay);
 * pipelines of different messages run concurrently. A failed publish is logged and never throws.
 */
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import type { SesEventType } from './types';

export interface SnsTarget {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface PublishStep {
  type: SesEventType;
  /** Wait before this step (after the previous one finished). */
  delayMs: number;
  topicArns: string[];
  /** Builds the record when the step runs (timestamps are the publish time). */
  build: (at: Date) => unknown;
}

export class EventPublisher {
  private readonly sns: SNSClient;
  private readonly pending = new Set<Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  private aborted = false;

  constructor(
    target: SnsTarget,
    private readonly log: (msg: string) => void,
    /** Called after a step was published to at least one topic. */
    private readonly onPublished: (messageId: string, type: SesEventType, at: Date) => void,
  ) {
    this.sns = new SNSClient({
      endpoint: target.endpoint,
      region: target.region,
      credentials: target.credentials,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
    });
  }

  /** Starts the pipeline of one message; returns at once. */
  run(messageId: string, steps: PublishStep[]): void {
    if (this.aborted || steps.length === 0) return;
    const p: Promise<void> = this.runSteps(messageId, steps)
      .catch((err: unknown) => this.log(`event pipeline of ${messageId} failed: ${describe(err)}`))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private async runSteps(messageId: string, steps: PublishStep[]): Promise<void> {
    for (const step of steps) {
      if (step.delayMs > 0) await this.sleep(step.delayMs);
      if (this.aborted) return;
      const at = new Date();
      const message = JSON.stringify(step.build(at));
      let published = false;
      for (const topicArn of step.topicArns) {
        try {
          await this.sns.send(new PublishCommand({ TopicArn: topicArn, Message: message }));
          published = true;
        } catch (err) {
          this.log(`could not publish ${step.type} event of ${messageId} to ${topicArn}: ${describe(err)}`);
        }
      }
      if (published) this.onPublished(messageId, step.type, at);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /**
   * Waits for running pipelines, at most `timeoutMs`; then abandons what is left (logged).
   * Returns true when everything was published.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([Promise.allSettled([...this.pending]).then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') {
      this.log(`abandoning ${this.pending.size} event pipeline(s) still running after ${timeoutMs} ms`);
      this.abort();
      return false;
    }
    return true;
  }

  /** Stops all pipelines at their next step. */
  abort(): void {
    this.aborted = true;
    for (const wake of [...this.sleepers]) wake();
  }

  close(): void {
    this.abort();
    this.sns.destroy();
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
