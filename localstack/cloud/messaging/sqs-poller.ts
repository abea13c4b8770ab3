/**
 * One poller per SQS event-source mapping, as Lambda runs them: receive a batch, invoke the worker with a
 * real SQSEvent, delete what succeeded. Failed records (batchItemFailures, or the whole batch when the
 * handler throws) are left alone: they reappear after the visibility timeout and the queue's redrive
 * policy moves them to the DLQ after maxReceiveCount receives.
 *
 * An invocation still running at its function's Timeout fails as on AWS (../lambda/lambda-timeout.ts): its batch
 * is not deleted and comes back after the visibility timeout, its receive count one higher
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html).
 *
 * While an invocation runs (up to its timeout), its messages are kept invisible: on AWS a queue's
 * visibility timeout is at least its function's timeout (Lambda refuses the mapping otherwise), so a
 * running batch is never handed out again (docs/local-cloud/messaging.md).
 * The test stacks shorten every queue's visibility to a second or two (LOCAL_QUEUE_VISIBILITY_SECONDS: 1 on the
 * suite's shared stack) so that failed messages come back quickly; without this, a batch still running past
 * that on a busy machine was delivered again and again, and reached the DLQ without ever failing.
 */
import { createHash } from 'node:crypto';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { LOCAL_REGION } from '../constants';
import { invokeWithinTimeout } from '../lambda/lambda-timeout';

// biome-ignore lint/suspicious/noConfusingVoidType: Lambda's contract (aws-lambda's own handler types): a handler resolves to a batch response or to nothing, and an async function returning nothing is Promise<void>
export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface PollerOptions {
  name: string;
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  handler: WorkerHandler;
  batchSize: number;
  timeoutSeconds: number;
  /** Batches handled at once (the mapping's maximum concurrency; Lambda scales out per batch). */
  concurrency?: number;
  log: (message: string) => void;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  const body = message.Body ?? '';
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body,
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? 'String',
          stringValue: value.StringValue,
          binaryValue: value.BinaryValue ? Buffer.from(value.BinaryValue).toString('base64') : undefined,
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: LOCAL_REGION,
  };
}

/**
 * How long the waiting receive waits for a message: SQS's longest long poll, as Lambda's pollers use
 * (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-short-and-long-polling.html).
 * A message sent while it waits is answered at once; an idle queue costs one receive per 20 s.
 */
const LONG_POLL_SECONDS = 20;

export class SqsPoller {
  private running = false;
  private readonly abort = new AbortController();
  /** Receive loops running: the long-polling one, and those added while messages keep coming. */
  private readonly receivers = new Set<Promise<void>>();
  /** Batches being handled now. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Receives under way: each holds a slot, so invocations never pass `concurrency`. */
  private receiving = 0;
  private slotWaiters: (() => void)[] = [];
  /** Batches handled since start (health and tests). */
  invocations = 0;
  private visibilitySeconds: Promise<number> | undefined;

  constructor(private readonly options: PollerOptions) {}

  start(): void {
    this.running = true;
    this.addReceiver(true);
  }

  isRunning(): boolean {
    return this.running;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.freeSlot();
    await Promise.allSettled([...this.receivers]);
    await Promise.allSettled([...this.inFlight]);
  }

  private get concurrency(): number {
    return this.options.concurrency ?? 2;
  }

  private addReceiver(waits: boolean): void {
    const loop: Promise<void> = this.receive(waits).finally(() => this.receivers.delete(loop));
    this.receivers.add(loop);
  }

  /** Wakes the receivers waiting for a slot (each checks again). */
  private freeSlot(): void {
    const waiters = this.slotWaiters;
    this.slotWaiters = [];
    for (const wake of waiters) wake();
  }

  /**
   * A receive loop. Up to `concurrency` batches run at once (Lambda's maximum concurrency); each receive
   * holds a slot while under way, and a full house waits for a batch to end. One loop (`waits`) long-polls,
   * so an idle queue costs one receive per 20 s, and there is one waiter per queue: the local queue
   * (fauxqs) wakes every waiting receive of a queue for each message sent. While receives bring messages,
   * more loops join (one per batch received, while slots are free), as Lambda adds pollers while messages
   * are available (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html); they do not
   * wait, and leave at the first empty answer.
   */
  private async receive(waits: boolean): Promise<void> {
    const { sqs, queueUrl, batchSize } = this.options;
    while (this.running) {
      while (this.running && this.inFlight.size + this.receiving >= this.concurrency)
        await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
      if (!this.running) return;
      let messages: Message[] = [];
      this.receiving++;
      try {
        const shortened = await this.shortenedVisibility();
        const result = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: batchSize,
            WaitTimeSeconds: waits ? LONG_POLL_SECONDS : 0,
            // A running batch kept invisible until its function's timeout (releaseFailed below).
            ...(shortened !== null ? { VisibilityTimeout: this.options.timeoutSeconds } : {}),
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: this.abort.signal },
        );
        messages = result.Messages ?? [];
      } catch (error) {
        if (!this.running) return;
        this.options.log(`${this.options.name}: receive failed: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      } finally {
        // The receive's slot is free again (a batch it brought takes one in dispatch, before any waiter runs).
        this.receiving--;
        this.freeSlot();
      }
      if (messages.length === 0) {
        if (waits) continue;
        return;
      }
      this.dispatch(messages);
      if (this.receivers.size < this.concurrency - this.inFlight.size) this.addReceiver(false);
    }
  }

  private dispatch(messages: Message[]): void {
    const handled: Promise<void> = this.invoke(messages)
      .catch((error: unknown) => this.options.log(`${this.options.name}: batch not handled: ${(error as Error).message}`))
      .finally(() => {
        this.inFlight.delete(handled);
        this.freeSlot();
      });
    this.inFlight.add(handled);
  }

  private async invoke(messages: Message[]): Promise<void> {
    const { sqs, queueUrl, queueArn, handler, name, timeoutSeconds } = this.options;
    const records = messages.map((message) => toRecord(message, queueArn));
    let failed: Set<string>;
    this.invocations++;
    try {
      // Past the function's Timeout the invocation fails (../lambda/lambda-timeout.ts): the whole batch comes back.
      const response = await invokeWithinTimeout(
        { name, timeoutSeconds },
        (context) => handler({ Records: records }, context),
        this.options.log,
      );
      const ids = new Set(records.map((r) => r.messageId));
      const reported = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      // As Lambda does: an unknown or empty identifier fails the whole batch.
      failed = reported.every((id) => ids.has(id)) ? new Set(reported) : ids;
    } catch (error) {
      this.options.log(`${name}: invocation failed, whole batch will be retried: ${(error as Error).message}`);
      failed = new Set(records.map((r) => r.messageId));
    }
    await this.releaseFailed(records.filter((r) => failed.has(r.messageId)));
    const done = records.filter((r) => !failed.has(r.messageId));
    if (done.length === 0) return;
    try {
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((r, index) => ({ Id: String(index), ReceiptHandle: r.receiptHandle })),
        }),
      );
    } catch (error) {
      this.options.log(`${name}: delete failed (messages will be redelivered): ${(error as Error).message}`);
    }
  }

  /** The queue's visibility timeout (read once). */
  private visibility(): Promise<number> {
    this.visibilitySeconds ??= this.options.sqs
      .send(new GetQueueAttributesCommand({ QueueUrl: this.options.queueUrl, AttributeNames: ['VisibilityTimeout'] }))
      .then((result) => Number(result.Attributes?.VisibilityTimeout ?? 30))
      .catch((error: unknown) => {
        this.visibilitySeconds = undefined;
        throw error;
      });
    return this.visibilitySeconds;
  }

  /**
   * A running batch stays invisible until its function's timeout, as AWS does by requiring a queue's visibility
   * timeout to be at least its function's (docs/local-cloud/messaging.md): on a queue whose visibility is shorter
   * (LOCAL_QUEUE_VISIBILITY_SECONDS) its receive asked for the function's timeout (ReceiveMessage's
   * VisibilityTimeout: no call of its own, no timer a busy event loop could make late). The records that failed
   * get the queue's own visibility back here, so that they come back as soon as on that queue.
   */
  private async releaseFailed(failed: SQSRecord[]): Promise<void> {
    const visibility = await this.shortenedVisibility();
    if (visibility !== null && failed.length > 0) await this.setVisibility(failed, visibility, 'give failed records their visibility back');
  }

  /** The queue's own visibility when it is shorter than the function's timeout (LOCAL_QUEUE_VISIBILITY_SECONDS), else null. */
  private async shortenedVisibility(): Promise<number | null> {
    try {
      const visibility = await this.visibility();
      return visibility > 0 && visibility < this.options.timeoutSeconds ? visibility : null;
    } catch (error) {
      this.options.log(`${this.options.name}: could not read the queue's visibility timeout: ${(error as Error).message}`);
      return null;
    }
  }

  private async setVisibility(records: SQSRecord[], seconds: number, why: string): Promise<void> {
    try {
      await this.options.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.options.queueUrl,
          Entries: records.map((r, index) => ({ Id: String(index), ReceiptHandle: r.receiptHandle, VisibilityTimeout: seconds })),
        }),
      );
    } catch (error) {
      this.options.log(`${this.options.name}: could not ${why}: ${(error as Error).message}`);
    }
  }
}
