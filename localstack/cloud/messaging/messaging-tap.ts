/**
 * What changes in the local SQS queues and S3 buckets, told to one observer (the journal,
 * ./messaging-journal.ts) synchronously, before fauxqs answers the request that made the change.
 *
 * SQS: fauxqs's SQS store hands its `spy` to every queue it creates, and a queue calls the spy's
 * `addMessage` at the start of each enqueue ("published"), each delete ("consumed") and each redrive to its
 * DLQ ("dlq", followed by the DLQ's own "published" of the same message). The event carries the message's
 * id, body and attributes but not its delay, so an enqueue is looked up in its queue (public fields) once
 * fauxqs has placed it: at the next event, or in a microtask, which runs before fauxqs's router, having
 * awaited the action, answers. A purge has no event: ./fauxqs-hooks.ts reports it before PurgeQueue runs.
 *
 * S3: ./tracked-s3-store.ts reports each object put (PutObject, CopyObject, CompleteMultipartUpload) and deleted.
 */
import type { SpyMessage } from 'fauxqs';
import type { MessageSpy, S3Object, SqsMessage, SqsQueue } from './fauxqs-classes';

export interface MessagingObserver {
  enqueued(queue: string, message: SqsMessage): void;
  deleted(queue: string, messageId: string): void;
  purged(queue: string): void;
  objectPut(bucket: string, key: string, object: S3Object): void;
  objectDeleted(bucket: string, key: string): void;
}

type SqsEvent = Extract<SpyMessage, { service: 'sqs' }>;

/** How far from the end of a queue's lists an enqueue is looked for first (it is placed last). */
const RECENT = 32;

/** The message `id` of `queue`, where fauxqs put it: ready or delayed (newest last), or already received. */
export function findMessage(queue: SqsQueue, id: string): SqsMessage | undefined {
  const fromEnd = (list: SqsMessage[], depth = list.length) => {
    for (let i = list.length - 1; i >= Math.max(0, list.length - depth); i--) if (list[i]!.messageId === id) return list[i];
    return undefined;
  };
  const inGroups = (groups: Map<string, SqsMessage[]>) => {
    for (const list of groups.values()) {
      const found = fromEnd(list);
      if (found) return found;
    }
    return undefined;
  };
  const inflight = () => {
    for (const entry of queue.inflightMessages.values()) if (entry.message.messageId === id) return entry.message;
    return undefined;
  };
  return (
    fromEnd(queue.messages, RECENT) ??
    fromEnd(queue.delayedMessages, RECENT) ??
    fromEnd(queue.messages) ??
    fromEnd(queue.delayedMessages) ??
    inflight() ??
    inGroups(queue.fifoMessages) ??
    inGroups(queue.fifoDelayed)
  );
}

export class MessagingTap {
  private observer: MessagingObserver | null = null;
  private suspended = false;
  private pending: SqsEvent[] = [];
  private flushScheduled = false;

  constructor(private readonly queueByName: (name: string) => SqsQueue | undefined) {}

  observe(next: MessagingObserver | null): void {
    this.flush();
    this.observer = next;
  }

  private get active(): MessagingObserver | null {
    return this.suspended ? null : this.observer;
  }

  /** Runs `restore` without observing its changes (the journal replaying itself). */
  withoutObserving<T>(restore: () => T): T {
    this.flush();
    this.suspended = true;
    try {
      return restore();
    } finally {
      this.suspended = false;
    }
  }

  /** A spy event of fauxqs's SQS queues (the spy of ../services/fauxqs.ts forwards them all here). */
  spied(event: SpyMessage): void {
    if (event.service !== 'sqs' || !this.active) return;
    // Every enqueue begun before this event has placed its message.
    this.flush();
    if (event.status === 'published') {
      this.pending.push(event);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(() => this.flush());
      }
    } else if (event.status === 'consumed') {
      this.active.deleted(event.queueName, event.messageId);
    }
  }

  purged(queue: string): void {
    this.flush();
    this.active?.purged(queue);
  }

  objectPut(bucket: string, key: string, object: S3Object): void {
    this.active?.objectPut(bucket, key, object);
  }

  objectDeleted(bucket: string, key: string): void {
    this.active?.objectDeleted(bucket, key);
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.pending.length) return;
    const events = this.pending;
    this.pending = [];
    const observer = this.active;
    if (!observer) return;
    for (const event of events) {
      const queue = this.queueByName(event.queueName);
      const message = queue && findMessage(queue, event.messageId);
      // Not found: the queue was deleted meanwhile; the journal drops its messages at restore anyway.
      if (message) observer.enqueued(event.queueName, message);
    }
  }
}

/** The spy fauxqs's SQS store hands its queues: every event goes to `tap`, none is buffered. */
export function createTapSpy(Base: new (params?: { bufferSize?: number }) => MessageSpy, tap: MessagingTap): MessageSpy {
  class TapSpy extends Base {
    override addMessage(message: SpyMessage): void {
      tap.spied(message);
    }
  }
  return new TapSpy({ bufferSize: 1 });
}
