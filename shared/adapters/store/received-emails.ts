/**
 * Received (inbound) emails: one item per (message, receiving account), PK RECEIVED#<inb>, listed per
 * account through GSI1 (ACCOUNT#<acc>#RECEIVED#0 / <inb>, newest first: ids are ULIDs of the time the
 * MX listener accepted the message). The id is chosen before the message is queued, so `create` is a
 * put-if-absent: a message processed twice (a retry, a duplicate delivery) makes one record.
 * Filters of the listing: `since` is a key condition (ids sort by time), `to` and `from` are filters on
 * lower-cased copies kept for them (`search_to`: the To, Cc and envelope addresses; `from_address`).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isExpired, objectRetentionDays, retentionKeyPrefix, retentionTtl } from '../../domain/accounts/retention';
import { ulid } from '../../domain/ids';
import { serviceClock } from '../clock';
import { retentionLookupFor } from './account-retention';
import { receivedEmailSchema, type ReceivedEmail } from '../../domain/inbound/received-email';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs } from './erasures';
import { receivedAddressesNamed } from '../../domain/privacy/named-addresses';
import { queryPage, type PageRequest } from './paginate';
import { isConditionFailure, type Table } from './table';

export type CreateReceivedOutcome = 'created' | 'exists';

export interface ReceivedListFilters {
  /** Lower-cased address: among To, Cc or the envelope recipients. */
  to?: string;
  /** Lower-cased address of the From header. */
  from?: string;
  /** Received at or after. */
  since?: Date;
}

/** `Name <a@b>` or `a@b` -> `a@b`, lower-cased. */
export function bareAddress(value: string): string {
  const angle = /<([^<>]*)>\s*$/.exec(value);
  return (angle ? angle[1]! : value).trim().toLowerCase();
}

/**
 * Items written from fce01bc to e6a0bc4 (2026-11-23, the first day of inbound) have `body_bytes` (html
 * and text together) instead of each body's size (`html_bytes`, `text_bytes`): which of the two bodies the
 * message had is unknown, so both read as absent (null) and the message stays readable through its raw
 * download link, instead of failing to decode.
 */
function upgradeReceivedItem(item: Record<string, unknown>): Record<string, unknown> {
  if (!('body_bytes' in item) || 'html_bytes' in item || 'text_bytes' in item) return item;
  const { body_bytes: _bodyBytes, ...rest } = item;
  return { ...rest, html_bytes: null, text_bytes: null };
}

/** The record without the listing's search copies (`search_to`, `from_address`: dropped by the schema). */
function toReceivedEmail(item: Record<string, unknown>): ReceivedEmail {
  return decodeItem(receivedEmailSchema, upgradeReceivedItem(item), 'ReceivedEmail');
}

export class ReceivedEmailRepository {
  constructor(private readonly table: Table) {}

  /**
   * The prefix a received email's objects are written under, written at `writtenAt`: the class of the
   * account's received_emails_days from its receipt (docs/retention.md), as its record's ttl.
   */
  async objectsPrefix(accountId: string, receivedAt: string, writtenAt: Date): Promise<string> {
    const days = await retentionLookupFor(this.table).daysFor(accountId, 'received_emails_days');
    return retentionKeyPrefix(objectRetentionDays(days, new Date(receivedAt), writtenAt));
  }

  /**
   * Puts the record if absent. `named`: the people it names (its address references; docs/erasure.md),
   * by default from the record's own header fields; the inbound worker passes them from the whole parsed
   * message, whose lists the record may have cut (../../domain/inbound/record-bounds.ts).
   */
  async create(email: ReceivedEmail, named: readonly string[] = receivedAddressesNamed(email)): Promise<CreateReceivedOutcome> {
    const searchTo = [...new Set([...email.to, ...email.cc, ...email.rcpt_to].map(bareAddress))];
    // Kept the account's received_emails_days from its receipt (docs/retention.md).
    const ttl = retentionTtl(await retentionLookupFor(this.table).daysFor(email.account_id, 'received_emails_days'), email.received_at);
    // The address references of the people it names (./erasures.ts; docs/erasure.md), written before the record.
    await writeAddressRefs(this.table, email.account_id, named, 'received_email', keys.receivedEmail(email.id), ttl);
    try {
      await this.table.client.send(
        new PutCommand({
          TableName: this.table.name,
          Item: {
            ...keys.receivedEmail(email.id),
            GSI1PK: keys.receivedByAccount(email.account_id),
            GSI1SK: email.id,
            type: 'received_email',
            ...email,
            search_to: searchTo,
            from_address: bareAddress(email.from),
            [ADDRESS_REFS_MARK]: ADDRESS_REFS_VERSION,
            ttl,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return 'created';
    } catch (error) {
      if (isConditionFailure(error)) return 'exists';
      throw error;
    }
  }

  /** The account's received email, or null (another account's id is not found). */
  async get(accountId: string, emailId: string): Promise<ReceivedEmail | null> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.receivedEmail(emailId) }));
    if (!result.Item || result.Item.account_id !== accountId || isExpired(result.Item, serviceClock.now())) return null;
    return toReceivedEmail(result.Item);
  }

  /** One page of the account's received emails, newest first; eventually consistent (GSI1). */
  list(accountId: string, page: PageRequest, filters: ReceivedListFilters = {}): Promise<Page<ReceivedEmail>> {
    const partition = keys.receivedByAccount(accountId);
    // Past their retention: left out (DynamoDB's TTL deletes lazily: docs/retention.md).
    const values: Record<string, unknown> = { ':pk': partition, ':now_seconds': Math.floor(serviceClock.now().getTime() / 1000) };
    const conditions: string[] = ['(attribute_not_exists(#ttl) OR #ttl > :now_seconds)'];
    let keyCondition = 'GSI1PK = :pk';
    if (filters.since) {
      // The smallest id of that millisecond: ids are `inb_<ulid>`, the first 10 characters its time.
      values[':since'] = `inb_${ulid(filters.since.getTime()).slice(0, 10)}`;
      keyCondition += ' AND GSI1SK >= :since';
    }
    if (filters.to) {
      values[':to'] = filters.to;
      conditions.push('contains(search_to, :to)');
    }
    if (filters.from) {
      values[':from'] = filters.from;
      conditions.push('from_address = :from');
    }
    return queryPage(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: keyCondition,
        ExpressionAttributeValues: values,
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        FilterExpression: conditions.join(' AND '),
        ScanIndexForward: false,
      },
      page,
      { GSI1PK: partition },
      (item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK }),
      toReceivedEmail,
    );
  }
}
