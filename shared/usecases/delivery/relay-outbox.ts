/**
 * The transactional outbox relay. The send path writes an email item (`queued`, with the usage it owes
 * in `usage_deferred` on uncapped plans) and nothing else; the table's stream hands every INSERTed item
 * to this use case as the changes it stands for (shared/adapters/store/email-acceptance-changes.ts), and it
 *   a. sends `{email_id}` to the send queue for each email_queued (SendMessageBatch, 10 per call);
 *      scheduled emails (the scheduler hands them over when due) and refused ones are not sent;
 *   b. publishes the events the write stands for: email.scheduled for email_scheduled, email.suppressed
 *      for email_suppressed (its details ride on the item), so a crash after the API's write cannot
 *      lose them (event ids derive from the email: a retry publishes the same ids);
 *   c. adds each usage_deferred increment to its counter (queued and scheduled emails alike: usage is
 *      counted at acceptance), one Update per distinct counter per batch;
 *   d. reports as done only a prefix of the batch (stream order) whose messages are all on the queue
 *      and whose usage is written: nothing accepted is lost, and a record counted is a record the
 *      event source checkpoints.
 *
 * Exactly-once usage: usage is written after the sends, only for the records reported done, so a
 * retry (which starts at the first record not done) never counts a record twice. The write is one
 * transaction per group of records with a token derived from their event ids: if the invocation dies
 * after the write but before the event source checkpoints (a crash, a timeout), the retry of the same
 * records within 10 minutes is a no-op. Left at-least-once: such a retry later than 10 minutes or with
 * other records appended to the group, and a replay of the stream (a lost checkpoint). The send queue
 * is at-least-once anyway: the send worker claims each email once.
 */
import { usageToken } from '../../lib/request-token';
import type { EventPublisher } from '../../ports/events';
import type { SendQueue } from '../../ports/queues';
import type { ServiceEvent } from '../../domain/webhooks/event';
import { emailEvent } from '../../domain/webhooks/email-event-data';
import type { UsageIncrement } from '../../adapters/store/deferred-usage';
import type { EmailAcceptanceChange } from '../../adapters/store/email-acceptance-changes';
import type { StreamRecordChanges } from '../../adapters/store/stream-record';

/** One stream record's changes, in stream order (see shared/doors/worker/for-each-stream-record.ts). */
export type OutboxRecord = Pick<StreamRecordChanges<EmailAcceptanceChange>, 'eventId' | 'changes'>;

export interface RelayOutboxDeps {
  sendQueue: Pick<SendQueue, 'enqueueMany'>;
  events: Pick<EventPublisher, 'publish'>;
  usage: {
    /** Most distinct counters one `add` takes. */
    readonly maxPerCall: number;
    /** Adds atomically; the same token again (10 minutes) changes nothing. */
    add(increments: readonly UsageIncrement[], token: string): Promise<void>;
  };
}

export interface RelayResult {
  /** Leading records processed (all of them when nothing failed). */
  done: number;
  /** Messages put on the send queue (including any after `done`, which a retry sends again). */
  enqueued: number;
  /** Counter updates written. */
  counted: number;
  /** Events published (email.scheduled, email.suppressed). */
  published: number;
  /** Why the record at `done` is not done. */
  failure?: string;
}

interface Work {
  index: number;
  eventId: string;
  emailId?: string;
  event?: ServiceEvent;
  usage: UsageIncrement[];
}

/** What one record asks of the relay. */
function workOf(record: OutboxRecord, index: number): Work {
  const work: Work = { index, eventId: record.eventId, usage: [] };
  for (const change of record.changes) {
    switch (change.kind) {
      case 'email_queued':
        work.emailId = change.email_id;
        break;
      case 'email_scheduled':
        work.event = emailEvent(change.email, 'email.scheduled', change.email.created_at);
        break;
      case 'email_suppressed':
        work.event = emailEvent(change.email, 'email.suppressed', change.email.created_at, { extra: change.details });
        break;
      case 'usage_deferred':
        work.usage.push(...change.increments);
        break;
    }
  }
  return work;
}

/** Groups records (in order) so that each group touches at most `max` distinct counters, merged per counter. */
function usageGroups(works: readonly Work[], max: number) {
  const groups: { first: number; eventIds: string[]; counters: Map<string, UsageIncrement> }[] = [];
  for (const work of works) {
    if (work.usage.length === 0) continue;
    let group = groups[groups.length - 1];
    const added = work.usage.filter((u) => !group?.counters.has(u.counter)).length;
    if (!group || group.counters.size + added > max) {
      group = { first: work.index, eventIds: [], counters: new Map() };
      groups.push(group);
    }
    group.eventIds.push(work.eventId);
    for (const increment of work.usage) {
      const current = group.counters.get(increment.counter);
      if (current) current.count += increment.count;
      else group.counters.set(increment.counter, { ...increment });
    }
  }
  return groups;
}

export async function relayOutbox(deps: RelayOutboxDeps, records: readonly OutboxRecord[]): Promise<RelayResult> {
  let done = records.length;
  let failure: string | undefined;
  const fail = (index: number, reason: string) => {
    if (index < done) {
      done = index;
      failure = reason;
    }
  };
  const works = records.map(workOf);

  // a. The hand-off: one SendMessageBatch per 10 emails; the first refused one ends the done prefix.
  const sends = works.filter((work) => work.emailId !== undefined);
  let enqueued = 0;
  if (sends.length > 0) {
    const { failed } = await deps.sendQueue.enqueueMany(sends.map((work) => ({ email_id: work.emailId! })));
    enqueued = sends.length - failed.length;
    for (const position of failed) fail(sends[position]!.index, `send queue refused email ${sends[position]!.emailId}`);
  }

  // b. The events of the done prefix (one publish, batched by the publisher); a failure ends the prefix at
  // the first record with an event, and the retry publishes them again (same ids, delivered once).
  const withEvents = works.filter((work) => work.event !== undefined && work.index < done);
  let published = 0;
  if (withEvents.length > 0) {
    try {
      await deps.events.publish(withEvents.map((work) => work.event!));
      published = withEvents.length;
    } catch (error) {
      fail(withEvents[0]!.index, `event publish failed: ${(error as Error).message}`);
    }
  }

  // c. Usage of the done prefix only, group by group in stream order.
  let counted = 0;
  for (const group of usageGroups(
    works.filter((work) => work.index < done),
    deps.usage.maxPerCall,
  )) {
    try {
      await deps.usage.add([...group.counters.values()], usageToken('usage', group.eventIds));
      counted += group.counters.size;
    } catch (error) {
      fail(group.first, `usage update failed: ${(error as Error).message}`);
      break;
    }
  }
  return { done, enqueued, counted, published, ...(failure ? { failure } : {}) };
}
