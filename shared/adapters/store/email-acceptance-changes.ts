/**
 * What the outbox relay reads of the table's stream (shared/usecases/delivery/relay-outbox.ts): an email item
 * INSERTed by the send path stands for
 *   email_queued      it was accepted to go now (the relay hands it to the send queue);
 *   email_scheduled   it was accepted for later (email.scheduled);
 *   email_suppressed  it was refused at acceptance, every recipient suppressed (email.suppressed, whose
 *                     details ride on the item);
 *   usage_deferred    it owes its account's uncapped usage counters (`usage_deferred`, see usage.ts).
 * Other writes stand for nothing here. An email the relay cannot read (no id, a malformed
 * `usage_deferred`, or one naming counters other than its account's usage counters: the relay can
 * write to every item of the table; a scheduled or refused one that does not decode as an Email, a
 * StoredItemError) stops the batch at its record (stream-record.ts).
 */
import * as z from 'zod';
import type { Email } from '../../domain/emails/email';
import { usageCounterId, type UsageIncrement } from './deferred-usage';
import { toStoredEmail } from './emails/stored-email';
import { isUncappedUsageKey } from './usage';
import { parseImage, type StreamReader, type StreamWrite } from './stream-record';

export type EmailAcceptanceChange =
  | { kind: 'email_queued'; email_id: string }
  | { kind: 'email_scheduled'; email: Email }
  | { kind: 'email_suppressed'; email: Email; details: Record<string, unknown> }
  | { kind: 'usage_deferred'; increments: UsageIncrement[] };

const deferredUsage = z
  .object(
    {
      account_id: z.string(),
      count: z.int().min(1),
      entries: z.array(z.object({ key: z.object({ PK: z.string(), SK: z.string() }), expiresAt: z.number() }), 'entries is not a list'),
    },
    'usage_deferred is not an object',
  )
  .superRefine((usage, context) => {
    usage.entries.forEach(({ key }, index) => {
      if (!isUncappedUsageKey(usage.account_id, key))
        context.addIssue({ code: 'custom', path: ['entries', index, 'key'], message: "not one of the account's usage counters" });
    });
  });

const acceptedEmail = z.looseObject({
  id: z.string('an email item without an id').min(1, 'an email item without an id'),
  usage_deferred: deferredUsage.optional(),
});

function changesOf(write: StreamWrite): EmailAcceptanceChange[] {
  if (write.eventName !== 'INSERT' || write.newImage?.type !== 'email') return [];
  const item = parseImage(acceptedEmail, write.newImage);
  const changes: EmailAcceptanceChange[] = [];
  if (item.status === 'queued') changes.push({ kind: 'email_queued', email_id: item.id });
  if (item.status === 'scheduled' || (item.status === 'failed' && item.suppressed_event)) {
    const { email, internals } = toStoredEmail(item);
    changes.push(
      email.status === 'scheduled'
        ? { kind: 'email_scheduled', email }
        : { kind: 'email_suppressed', email, details: internals.suppressed_event ?? {} },
    );
  }
  const usage = item.usage_deferred;
  if (usage)
    changes.push({
      kind: 'usage_deferred',
      increments: usage.entries.map((entry) => ({ counter: usageCounterId(entry.key), count: usage.count, expiresAt: entry.expiresAt })),
    });
  return changes;
}

/** The outbox relay's reader: a malformed email stops the batch. */
export const emailAcceptances: StreamReader<EmailAcceptanceChange> = { onMalformed: 'stop', changesOf };
