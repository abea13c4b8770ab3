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
import { ADDRESS_REFS_MARK, ADDRESS_REFS_VERSION, writeAddressRefs, type AddressRefKind } from './erasures';
import { legacyRecordOf, type Key, type LegacyEmail, type LegacyReceivedEmail, type LegacyRecord } from './legacy-record';
import { isConditionFailure, type Table } from './table';

/** Where a Scan segment stands (opaque to callers: handed back to scanPage). */
export interface ScanPosition {
  readonly key: Record<string, unknown>;
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
