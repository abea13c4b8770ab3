/**
 * The transactional outbox relay. The send path writes an email item (`queued`, with the usage it owes
 * in `usage_deferred` on uncapped plans) and nothing else; the table's stream hands every INSERTed item
 * to this use case, which
 *   a. sends `{email_id}` to the send queue for each email inserted `queued` (SendMessageBatch, 10 per
 *      call); scheduled emails (the scheduler hands them over when due) and refused ones (`failed`) are
 *      not sent;
 *   b. publishes the events the write stands for: email.scheduled for an email inserted `scheduled`,
 *      email.suppressed for a refused one (its details ride on the item), so a crash after the API's
 *      write cannot lose them (event ids derive from the email: a retry publishes the same ids);
 *   c. adds `usage_deferred.count` to each counter of `usage_deferred.entries` (queued and scheduled
 *      emails alike: usage is counted at acceptance), one Update per distinct counter per batch;
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
import { createHash } from 'node:crypto';
import type { EventPublisher, SendQueue } from '../ports';
import type { ServiceEvent } from '../domain/webhooks/event';
import { emailEvent } from '../domain/webhooks/email-event-data';
import { toStoredEmail } from '../store/emails';
import { keys } from '../store/keys';
import type { UsageIncrement } from '../store/deferred-usage';

/** One stream record, in stream order (see shared/worker/for-each-stream-record.ts). */
export interface OutboxRecord {
  eventId: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Record<string, unknown>;
}

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
  /** That record can never be relayed (an unreadable email): retrying it as it is cannot help. */
  permanent?: boolean;
}

interface Work {
  emailId?: string;
  event?: ServiceEvent;
  usage: UsageIncrement[];
}

/** Throws when the item is an email the relay cannot read. Null: nothing to do for this record. */
function workOf(record: OutboxRecord): Work | null {
  const item = record.newImage;
  if (record.eventName !== 'INSERT' || !item || item.type !== 'email') return null;
  const id = item.id;
  if (typeof id !== 'string' || id === '') throw new Error('email item without an id');
  const work: Work = { usage: [] };
  if (item.status === 'queued') work.emailId = id;
  if (item.status === 'scheduled' || (item.status === 'failed' && item.suppressed_event)) {
    const { email, internals } = toStoredEmail(item);
    work.event =
      email.status === 'scheduled'
        ? emailEvent(email, 'email.scheduled', email.created_at)
        : emailEvent(email, 'email.suppressed', email.created_at, { extra: internals.suppressed_event });
  }
  const deferred = item.usage_deferred as { account_id?: unknown; count?: unknown; entries?: unknown } | undefined;
  if (deferred !== undefined) {
    const { account_id: accountId, count, entries } = deferred ?? {};
    if (typeof accountId !== 'string' || !Number.isInteger(count) || (count as number) < 1 || !Array.isArray(entries)) {
      throw new Error(`email ${id}: malformed usage_deferred`);
    }
    const accountPk = keys.account(accountId).PK;
    for (const entry of entries as { key?: { PK?: unknown; SK?: unknown }; expiresAt?: unknown }[]) {
      const { PK, SK } = entry?.key ?? {};
      // Only the account's own usage counters: the relay may update any item of the table.
      if (PK !== accountPk || typeof SK !== 'string' || !SK.startsWith('USAGE#') || typeof entry.expiresAt !== 'number') {
        throw new Error(`email ${id}: malformed usage_deferred entry`);
      }
      work.usage.push({ key: { PK, SK }, count: count as number, expiresAt: entry.expiresAt });
    }
  }
  return work;
}

/** A ClientRequestToken (at most 36 characters) naming exactly these records. */
export function usageToken(eventIds: readonly string[]): string {
  return createHash('sha256').update(eventIds.join('\n')).digest('base64url').slice(0, 36);
}

/** Groups records (in order) so that each group touches at most `max` distinct counters, merged per counter. */
function usageGroups(works: { index: number; eventId: string; usage: UsageIncrement[] }[], max: number) {
  const groups: { first: number; eventIds: string[]; counters: Map<string, UsageIncrement> }[] = [];
  for (const work of works) {
    if (work.usage.length === 0) continue;
    let group = groups[groups.length - 1];
    const added = work.usage.filter((u) => !group?.counters.has(`${u.key.PK}\u0000${u.key.SK}`)).length;
    if (!group || group.counters.size + added > max) {
      group = { first: work.index, eventIds: [], counters: new Map() };
      groups.push(group);
    }
    group.eventIds.push(work.eventId);
    for (const increment of work.usage) {
      const id = `${increment.key.PK}\u0000${increment.key.SK}`;
      const current = group.counters.get(id);
      if (current) current.count += increment.count;
      else group.counters.set(id, { ...increment });
    }
  }
  return groups;
}

export async function relayOutbox(deps: RelayOutboxDeps, records: readonly OutboxRecord[]): Promise<RelayResult> {
  let done = records.length;
  let failure: string | undefined;
  let permanent = false;
  const fail = (index: number, reason: string, forGood = false) => {
    if (index < done) {
      done = index;
      failure = reason;
      permanent = forGood;
    }
  };

  // What each record asks for; an unreadable email ends the batch there (it fails, after its retries,
  // to the on-failure destination rather than vanishing; `permanent` lets the handler isolate it).
  const works: { index: number; eventId: string; emailId?: string; event?: ServiceEvent; usage: UsageIncrement[] }[] = [];
  for (let index = 0; index < records.length; index++) {
    try {
      const work = workOf(records[index]!);
      if (work) works.push({ index, eventId: records[index]!.eventId, ...work });
    } catch (error) {
      fail(index, (error as Error).message, true);
      break;
    }
  }

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
  for (const group of usageGroups(works.filter((work) => work.index < done), deps.usage.maxPerCall)) {
    try {
      await deps.usage.add([...group.counters.values()], usageToken(group.eventIds));
      counted += group.counters.size;
    } catch (error) {
      fail(group.first, `usage update failed: ${(error as Error).message}`);
      break;
    }
  }
  return { done, enqueued, counted, published, ...(failure ? { failure, permanent } : {}) };
}
