/**
 * Publishes the owed events of messages (their outbox, see outbox.ts) to SNS, one ordered
 * pipeline per message.
 *
 * The events of one message go out strictly in order (Send, then the outcome events at their due
 * time); pipelines of different messages run concurrently. An event counts as published once it
 * reached every one of its topics; progress is recorded per topic (store.markPublished), so a
 * retry or a re-publish after a restart only goes to the topics still missing it.
 *
 * A failed publish (SNS down, unknown topic) is never dropped: it is retried with exponential
 * backoff until it succeeds or the emulator stops. With a data directory the outbox is on disk and
 * the next start resumes it (`resume`); in memory, what is still owed at stop is lost with the rest.
 */
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { eventRecord } from './outbox';
import type { OutboxEntry, StoredMessage } from './types';

export interface SnsTarget {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface RetryOptions {
  /** First wait after a failure; doubles per failure of the same event. */
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_PUBLISH_RETRY: RetryOptions = { baseMs: 250, maxMs: 5000 };

/** Where progress goes (the store). */
export type MarkPublished = (message: StoredMessage, entry: OutboxEntry, topic: string, at: Date) => void;

interface Pipeline {
  done: Promise<void>;
  /** Waiting to retry after a failure (stop() does not wait for those). */
  retrying: boolean;
}

/**
 * Whether SES may publish to the topic: the topic's policy must allow the service principal
 * `ses.amazonaws.com` sns:Publish with aws:SourceArn the configuration set
 * (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-add-event-destination-sns.html). A string is the
 * reason it may not. Without one, SES may publish anywhere.
 */
export type PublishAuthorizer = (topicArn: string, configurationSet: string | null) => true | string;

export class EventPublisher {
  /** Set once the topics' policies are known (the local cloud deploys them after the emulator starts). */
  authorizePublish?: PublishAuthorizer;
  private readonly sns: SNSClient;
  private readonly pipelines = new Map<string, Pipeline>();
  private readonly sleepers = new Set<() => void>();
  private aborted = false;

  constructor(
    target: SnsTarget,
    private readonly log: (msg: string) => void,
    private readonly markPublished: MarkPublished,
    private readonly retry: RetryOptions = DEFAULT_PUBLISH_RETRY,
  ) {
    this.sns = new SNSClient({
      endpoint: target.endpoint,
      region: target.region,
      credentials: target.credentials,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2000, requestTimeout: 5000 },
    });
  }

  /** Starts publishing what `message` still owes (no-op if nothing, or if already running); returns at once. */
  run(message: StoredMessage): void {
    if (this.aborted || this.pipelines.has(message.id) || !message.eventMail) return;
    if (!message.outbox.some((e) => e.unpublished.length > 0)) return;
    const pipeline: Pipeline = { done: Promise.resolve(), retrying: false };
    pipeline.done = this.publishAll(message, pipeline)
      .catch((err: unknown) => this.log(`event pipeline of ${message.id} failed: ${describe(err)}`))
      .finally(() => this.pipelines.delete(message.id));
    this.pipelines.set(message.id, pipeline);
  }

  /** Re-publishes what earlier runs owed (on start). */
  resume(messages: readonly StoredMessage[]): void {
    if (messages.length === 0) return;
    const owed = messages.reduce((n, m) => n + m.outbox.filter((e) => e.unpublished.length > 0).length, 0);
    this.log(`re-publishing ${owed} owed event(s) of ${messages.length} message(s) from an earlier run`);
    for (const m of messages) this.run(m);
  }

  get pendingCount(): number {
    return this.pipelines.size;
  }

  private async publishAll(message: StoredMessage, pipeline: Pipeline): Promise<void> {
    const mail = message.eventMail;
    if (!mail) return;
    for (const entry of message.outbox) {
      if (entry.unpublished.length === 0) continue;
      const wait = Date.parse(entry.at) - Date.now();
      if (wait > 0) await this.sleep(wait);
      // The same bytes on every attempt and after a restart (the entry fixes all of the content).
      const body = JSON.stringify(eventRecord(mail, entry));
      let failures = 0;
      while (entry.unpublished.length > 0) {
        if (this.aborted) return;
        for (const topicArn of [...entry.unpublished]) {
          const allowed = this.authorizePublish?.(topicArn, message.configurationSet) ?? true;
          if (allowed !== true) {
            // SES cannot deliver to a topic that refuses it: the event is lost, as on AWS (our choice: logged, not retried).
            this.log(`dropped ${entry.type} event of ${message.id}: SES may not publish to ${topicArn}: ${allowed}`);
            this.markPublished(message, entry, topicArn, new Date());
            continue;
          }
          try {
            await this.sns.send(new PublishCommand({ TopicArn: topicArn, Message: body }));
            this.markPublished(message, entry, topicArn, new Date());
          } catch (err) {
            failures += 1;
            const delay = this.backoff(failures);
            // Logged on attempts 1, 2, 4, 8...: a dead topic must not flood the log.
            if ((failures & (failures - 1)) === 0) {
              this.log(
                `could not publish ${entry.type} event of ${message.id} to ${topicArn} (attempt ${failures}): ${describe(err)}; retrying in ${delay} ms`,
              );
            }
          }
          if (this.aborted) return;
        }
        if (entry.unpublished.length === 0) break;
        pipeline.retrying = true;
        await this.sleep(this.backoff(failures));
        pipeline.retrying = false;
      }
    }
  }

  private backoff(failures: number): number {
    return Math.min(this.retry.baseMs * 2 ** Math.min(failures - 1, 30), this.retry.maxMs);
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
   * Waits, at most `timeoutMs`, until every pipeline has finished or is waiting to retry a failed
   * publish; then stops them all. Returns true when nothing is owed any more.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const busy = (): Pipeline[] => [...this.pipelines.values()].filter((p) => !p.retrying);
    while (busy().length > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      // Re-check now and then: a pipeline may start waiting for a retry without finishing.
      await Promise.race([Promise.allSettled(busy().map((p) => p.done)), new Promise<void>((r) => (timer = setTimeout(r, 25)))]);
      clearTimeout(timer);
    }
    const left = this.pipelines.size;
    this.abort();
    if (left > 0) this.log(`stopping with ${left} message(s) still owing events (kept in the outbox when there is a data directory)`);
    return left === 0;
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
