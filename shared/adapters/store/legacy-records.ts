/**
 * Records written before issue 34's data lifecycle (docs/privacy.md, "Records of before this release"), as
 * the one-off adoption (shared/usecases/privacy/adopt-legacy-records.ts) finds and updates them:
 *
 * - sent emails and received emails without a `ttl` (no retention: they never expired), whose objects are
 *   outside the `retention/<N>d/` prefixes (no lifecycle rule covers them);
 * - sent emails, received emails, webhook deliveries and automation runs without the address references of
 *   this release (ADDRESS_REFS_MARK below ADDRESS_REFS_VERSION: none, or only some of the addresses they
 *   name), which an erasure could not find by every address.
 *
 * This is the only Scan of the product: an operator's migration, run once per deployment from the admin CLI,
 * never a request's path. A Scan segment reads its slice of the whole table a page (1 MB) at a time, with a
 * filter that keeps only the records above; what it reads is billed whether kept or not (about 128 read
 * units per MB, eventually consistent).
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ReceivedAddressFields } from '../../domain/privacy/named-addresses';
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs, type AddressRefKind } from './erasures';
import { isConditionFailure, type Table } from './table';

type Key = { PK: string; SK: string };

/** A sent email with no retention: its recipients and where its objects are. */
export interface LegacyEmail {
  kind: 'email';
  key: Key;
  accountId: string;
  createdAt: string;
  /** Its ttl, when it has its retention already (then only its references are written). */
  ttl: number | null;
  recipients: { to: string[]; cc: string[]; bcc: string[]; reply_to: string[] };
  /** The objects it names (body, raw message, each attachment's, in order), so the record can point at moved copies. */
  objects: { body: string | null; mime: string | null; attachments: (string | null)[] };
}

/** A received email with no retention (its objects at `inbound/<id>/`, its raw message the listener's shared copy). */
export interface LegacyReceivedEmail {
  kind: 'received_email';
  key: Key;
  accountId: string;
  id: string;
  receivedAt: string;
  /** Its ttl, when it has its retention already (then only its references are written). */
  ttl: number | null;
  /** The header fields it names people by (shared/domain/privacy/named-addresses.ts). */
  fields: ReceivedAddressFields;
  rawKey: string;
  /** The ids of its stored attachments (their objects: `inbound/<id>/attachments/<attachment id>`). */
  attachmentIds: string[];
  contentKept: boolean;
}

/** A webhook delivery without this release's address references. */
export interface LegacyDelivery {
  kind: 'webhook_delivery';
  key: Key;
  accountId: string;
  eventType: string;
  payload: string;
  ttl: number | null;
}

/** An automation run without this release's address references. */
export interface LegacyRun {
  kind: 'automation_run';
  key: Key;
  accountId: string;
  /** Its event (name, user_id, email, data). */
  event: unknown;
  subject: string | null;
}

export type LegacyRecord = LegacyEmail | LegacyReceivedEmail | LegacyDelivery | LegacyRun;

/** Where a Scan segment stands (opaque to callers: handed back to scanPage). */
export interface ScanPosition {
  readonly key: Record<string, unknown>;
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
const ttlOf = (item: Record<string, unknown>): number | null => (typeof item.ttl === 'number' ? item.ttl : null);

function legacyRecordOf(item: Record<string, unknown>): LegacyRecord | null {
  const key = { PK: String(item.PK), SK: String(item.SK) };
  const accountId = str(item.account_id);
  if (!accountId) return null;
  switch (item.type) {
    case 'email':
      return legacyEmailOf(item, key, accountId);
    case 'received_email':
      return legacyReceivedEmailOf(item, key, accountId);
    case 'webhook_delivery':
      return {
        kind: 'webhook_delivery',
        key,
        accountId,
        eventType: String(item.event_type ?? ''),
        payload: String(item.payload ?? ''),
        ttl: typeof item.ttl === 'number' ? item.ttl : null,
      };
    case 'run': {
      return { kind: 'automation_run', key, accountId, event: item.event ?? null, subject: str(item.subject) };
    }
    default:
      return null;
  }
}

function legacyEmailOf(item: Record<string, unknown>, key: Key, accountId: string): LegacyEmail {
  const attachments = Array.isArray(item.attachments) ? (item.attachments as Record<string, unknown>[]) : [];
  const id = String(item.id ?? '');
  return {
    kind: 'email',
    key,
    accountId,
    createdAt: String(item.created_at ?? ''),
    ttl: ttlOf(item),
    recipients: { to: strings(item.to), cc: strings(item.cc), bcc: strings(item.bcc), reply_to: strings(item.reply_to) },
    objects: {
      body: str(item.body_blob_key),
      mime: str(item.mime_blob_key),
      // As sentEmailObjects (shared/domain/privacy/record-objects.ts) reads them: its blob_key, else the default key.
      attachments: attachments.map((attachment, index) => str(attachment.blob_key) ?? `attachments/${id}/${index}`),
    },
  };
}

function legacyReceivedEmailOf(item: Record<string, unknown>, key: Key, accountId: string): LegacyReceivedEmail {
  return {
    kind: 'received_email',
    key,
    accountId,
    id: String(item.id ?? ''),
    receivedAt: String(item.received_at ?? ''),
    ttl: ttlOf(item),
    fields: {
      from: String(item.from ?? ''),
      reply_to: strings(item.reply_to),
      to: strings(item.to),
      cc: strings(item.cc),
      mail_from: String(item.mail_from ?? ''),
      rcpt_to: strings(item.rcpt_to),
    },
    rawKey: String(item.raw_key ?? ''),
    attachmentIds: (Array.isArray(item.attachments) ? (item.attachments as Record<string, unknown>[]) : [])
      .map((attachment) => str(attachment.id))
      .filter((id): id is string => id !== null),
    contentKept: item.content_kept !== false,
  };
}

export class LegacyRecordRepository {
  constructor(private readonly table: Table) {}

  /**
   * One page of one Scan segment: the legacy records it holds (often none: the filter drops the rest) and
   * the position of the next page (null: the segment is done).
   */
  async scanPage(
    segment: number,
    totalSegments: number,
    position: ScanPosition | null,
  ): Promise<{ records: LegacyRecord[]; scanned: number; position: ScanPosition | null }> {
    const result = await this.table.client.send(
      new ScanCommand({
        TableName: this.table.name,
        Segment: segment,
        TotalSegments: totalSegments,
        // Every record without a ttl has no mark either (both are newer): one condition finds both.
        FilterExpression: '#type IN (:email, :received, :delivery, :run) AND (attribute_not_exists(#mark) OR #mark < :version)',
        ExpressionAttributeNames: { '#type': 'type', '#mark': ADDRESS_REFS_MARK },
        ExpressionAttributeValues: {
          ':email': 'email',
          ':received': 'received_email',
          ':delivery': 'webhook_delivery',
          ':run': 'run',
          ':version': ADDRESS_REFS_VERSION,
        },
        ...(position ? { ExclusiveStartKey: position.key } : {}),
      }),
    );
    const records = (result.Items ?? []).map(legacyRecordOf).filter((record): record is LegacyRecord => record !== null);
    return { records, scanned: result.ScannedCount ?? 0, position: result.LastEvaluatedKey ? { key: result.LastEvaluatedKey } : null };
  }

  /**
   * Gives a sent email its retention: `ttl`, and its objects' keys where the adoption copied them (under a
   * retention prefix). Only while it has no ttl: 'adopted', or 'already' (another run adopted it first).
   */
  async adoptEmail(email: LegacyEmail, ttl: number, moved: LegacyEmail['objects']): Promise<'adopted' | 'already'> {
    const sets = ['#ttl = :ttl'];
    const values: Record<string, unknown> = { ':ttl': ttl };
    if (moved.body) {
      sets.push('body_blob_key = :body');
      values[':body'] = moved.body;
    }
    if (moved.mime) {
      sets.push('mime_blob_key = :mime');
      values[':mime'] = moved.mime;
    }
    moved.attachments.forEach((key, index) => {
      if (!key) return;
      sets.push(`attachments[${index}].blob_key = :a${index}`);
      values[`:a${index}`] = key;
    });
    return this.conditionalSet(email.key, sets, values);
  }

  /** Gives a received email its retention: `ttl`, `objects_prefix` and the account's copy of the raw message. */
  async adoptReceivedEmail(
    email: LegacyReceivedEmail,
    ttl: number,
    objectsPrefix: string,
    rawCopyKey: string | null,
  ): Promise<'adopted' | 'already'> {
    const sets = ['#ttl = :ttl', 'objects_prefix = :prefix'];
    const values: Record<string, unknown> = { ':ttl': ttl, ':prefix': objectsPrefix };
    if (rawCopyKey) {
      sets.push('raw_key = :raw', 'shared_raw_key = :shared');
      values[':raw'] = rawCopyKey;
      values[':shared'] = email.rawKey;
    }
    return this.conditionalSet(email.key, sets, values);
  }

  /** Writes a record's address references (./erasures.ts), expiring with it (`ttl`; none: kept while the record is). */
  async writeRefs(accountId: string, addresses: readonly string[], kind: AddressRefKind, target: Key, ttl: number | null): Promise<void> {
    if (addresses.length > 0) await writeAddressRefs(this.table, accountId, addresses, kind, target, ttl ?? undefined);
  }

  /** Marks a record whose address references are written (ADDRESS_REFS_VERSION; an absent record: nothing to mark). */
  async markRefsWritten(key: Key): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: key,
          UpdateExpression: 'SET #mark = :version',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#mark': ADDRESS_REFS_MARK },
          ExpressionAttributeValues: { ':version': ADDRESS_REFS_VERSION },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  private async conditionalSet(key: Key, sets: string[], values: Record<string, unknown>): Promise<'adopted' | 'already'> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#ttl)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: values,
        }),
      );
      return 'adopted';
    } catch (error) {
      if (isConditionFailure(error)) return 'already';
      throw error;
    }
  }
}
