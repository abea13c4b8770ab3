/**
 * Writing a new email item (./accept.ts): its put (keys, listing entries, due entry), its `ttl`, and the
 * address references written beside it.
 */
import { retentionTtl } from '#shared/domain/accounts/retention';
import type { Email } from '#shared/domain/emails/email';
import { EVENT_RANK } from '#shared/domain/emails/outcomes';
import { recipientsNamed } from '#shared/domain/privacy/named-addresses';
import { acceptedDueAt, type RecoveryBounds } from '#shared/domain/reliability/bounds';
import { retentionLookupFor } from '../account-retention';
import { dueAttributes } from '../due-index';
import { emailIndexShard } from '../email-index-shard';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, addressRefItems, putAddressRefs } from '../erasures';
import type { IdempotencyRecord } from '../idempotency';
import { idempotencyKeyOf } from '../idempotency';
import { keys } from '../keys';
import { withoutNullFields, type Table } from '../table';
import { LATE_FIELDS, type StoredBody } from './stored-email';

/** The idempotency record an acceptance creates with its email (fails when a live one exists). */
export interface AcceptIdempotency {
  accountId: string;
  key: string;
  record: IdempotencyRecord;
  now: Date;
}

/** The PutItem of a new email: `extra` holds what only some writes carry (internals, ttl, deferred usage, the raw message). */
export function emailPut(table: Table, bounds: RecoveryBounds, email: Email, body: StoredBody, extra: Record<string, unknown>) {
  const due = acceptedDueAt(bounds, email);
  return {
    TableName: table.name,
    Item: {
      ...keys.email(email.id),
      // The listings' entries, under one of the account's (and tenant's) shards (../email-listing.ts), on
      // keys-only indexes (GSI4, GSI5): the status writes that follow never rewrite them.
      GSI4PK: keys.emailsByAccount(email.account_id, emailIndexShard(email.id)),
      GSI4SK: email.id,
      ...(email.tenant_id ? { GSI5PK: keys.emailsByTenant(email.tenant_id, emailIndexShard(email.id)), GSI5SK: email.id } : {}),
      // Queued and scheduled emails enter the due index: the reconciler re-drives them if they stall.
      ...(due === null ? {} : dueAttributes('EMAIL', email.id, due)),
      type: 'email',
      ...withoutNullFields(email, LATE_FIELDS),
      ...extra,
      last_event_rank: EVENT_RANK.queued,
      // Its references (every address it names) are written beside it (../erasures.ts).
      [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
      ...('inline' in body ? { body: body.inline } : { body_blob_key: body.blobKey }),
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  };
}

/**
 * The address references of its recipients and Reply-To (../erasures.ts; docs/erasure.md): to the email, and to its
 * idempotency record. Written beside the email, in parallel: one more write per recipient, no more round trips,
 * and one BatchWriteItem for both records' references (up to 25 together).
 */
export async function writeEmailAddressRefs(
  table: Table,
  email: Email,
  idempotency: AcceptIdempotency | undefined,
  ttl: number,
): Promise<void> {
  await putAddressRefs(table, emailAddressRefItems(email, idempotency, ttl));
}

/** The items of the email's address references (and its idempotency record's), as writeEmailAddressRefs writes them. */
export function emailAddressRefItems(email: Email, idempotency: AcceptIdempotency | undefined, ttl: number): Record<string, unknown>[] {
  const recipients = recipientsNamed(email);
  return [
    ...addressRefItems(email.account_id, recipients, 'email', keys.email(email.id), ttl),
    ...(idempotency
      ? addressRefItems(email.account_id, recipients, 'idempotency_record', idempotencyKeyOf(idempotency.accountId, idempotency.key))
      : []),
  ];
}

/**
 * The email's `ttl` (docs/retention.md): its account's emails_days from its creation, or from its
 * scheduled time when later (a scheduled email is kept its whole window after it is sent).
 */
export async function emailTtl(
  table: Table,
  email: Pick<Email, 'account_id' | 'created_at' | 'scheduled_at'>,
  knownDays?: number,
): Promise<number> {
  const days = knownDays ?? (await retentionLookupFor(table).daysFor(email.account_id, 'emails_days'));
  const from = email.scheduled_at && email.scheduled_at > email.created_at ? email.scheduled_at : email.created_at;
  return retentionTtl(days, from);
}
