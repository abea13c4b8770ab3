/**
 * Suppressions repository: one item per (account, list, address), keyed by the address (key design and
 * its reasons in keys.ts). Adds are conditional puts, so adding an address that is already on the list
 * (again, or concurrently) never creates a second record: the existing one is returned instead.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite, deleteRequests } from './batch-write';
import { suppressionSchema, type Suppression } from '../../domain/suppressions/model';
import type { SuppressionReason } from '../../domain/suppressions/reasons';
import type { SuppressedFor } from '../../domain/address-validation/verdict';
import { normaliseEmail } from '../../domain/mail/address';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import { queryPage, type PageRequest } from './paginate';
import { isConditionFailure, itemOfRefusedWrite, type Table } from './table';
import { addNewRecords } from './add-new-records';
import { batchGetItems } from './batch-get';
import { erasedAddressKey, erasedSuppressionMatches } from './erasures';

/** Items one clean-up page removes (4 BatchWriteItem calls). */
export const CLEANUP_PAGE = 100;

/**
 * Deletes items by key (BatchWriteItem, 25 a call, unprocessed keys retried with backoff). Deleting a
 * missing item is not an error, so this is idempotent.
 */
export async function deleteItems(table: Table, itemKeys: readonly Record<string, string>[]): Promise<void> {
  await batchWrite(table, deleteRequests(itemKeys));
}

/** Keys of up to `limit` items of one GSI1 partition (the index is eventually consistent). */
export async function gsi1PartitionKeys(table: Table, partition: string, limit: number): Promise<Record<string, string>[]> {
  const result = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ProjectionExpression: 'PK, SK',
      Limit: limit,
    }),
  );
  return (result.Items ?? []).map((item) => ({ PK: item.PK as string, SK: item.SK as string }));
}

/** A record as the table holds it: keyed by its list and address, listed by GSI1 (newest first). */
function itemOf(suppression: Suppression): Record<string, unknown> {
  return {
    ...keys.suppression(suppression.account_id, suppression.email, suppression.tenant),
    GSI1PK: keys.suppressionsByScope(suppression.account_id, suppression.tenant),
    GSI1SK: suppression.id,
    type: 'suppression',
    ...suppression,
  };
}

/** An account-wide entry may have no `tenant` attribute: null (the schema's default). */
function toSuppression(item: Record<string, unknown>): Suppression {
  return decodeItem(suppressionSchema, item, 'Suppression');
}

export { batchGetItems } from './batch-get';

export interface AddResult {
  /** The record on the list afterwards: the new one, or the one that was already there. */
  suppression: Suppression;
  created: boolean;
}

export class SuppressionRepository {
  constructor(private readonly table: Table) {}

  /**
   * Puts the record unless its (list, address) already has one; then returns the existing record
   * (unchanged: its id, reason and created_at stay). Concurrent adds of one address create one record.
   */
  async add(suppression: Suppression): Promise<AddResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: itemOf(suppression),
            ConditionExpression: 'attribute_not_exists(PK)',
            // A refused put answers the record that is there: one round trip, not a put and a read.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { suppression, created: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const existing = itemOfRefusedWrite(error);
        if (existing) return { suppression: toSuppression(existing), created: false };
      }
      const existing = await this.get(suppression.account_id, suppression.tenant, suppression.email);
      if (existing) return { suppression: existing, created: false };
      // Removed between our put and our read: put again.
      if (attempt >= 5)
        throw new Error(`suppression of ${suppression.account_id}/${suppression.tenant ?? '-'} kept changing under concurrent writes`);
    }
  }

  /**
   * `add` for each record, results in input order: the records go in NEW_ITEMS_PER_TRANSACTION to a
   * transaction (./add-new-records.ts), a refused one answering the record that is there. An address given twice
   * is added once: its second result is the first one's record, not created.
   */
  async addMany(suppressions: readonly Suppression[]): Promise<AddResult[]> {
    const added = await addNewRecords(this.table, suppressions, {
      itemOf,
      fromItem: toSuppression,
      addOne: async (record) => {
        const { suppression, created } = await this.add(record);
        return { record: suppression, created };
      },
    });
    return added.map(({ record, created }) => ({ suppression: record, created }));
  }

  async get(accountId: string, tenantId: string | null, email: string): Promise<Suppression | null> {
    const result = await this.table.client.send(
      new GetCommand({
        TableName: this.table.name,
        Key: keys.suppression(accountId, normaliseEmail(email), tenantId),
        ConsistentRead: true,
      }),
    );
    return result.Item ? toSuppression(result.Item) : null;
  }

  /** One list (the account's, or a tenant's), newest first, optionally only one reason. */
  list(accountId: string, tenantId: string | null, filter: { reason?: SuppressionReason }, page: PageRequest): Promise<Page<Suppression>> {
    const GSI1PK = keys.suppressionsByScope(accountId, tenantId);
    return queryPage(
      this.table,
      {
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': GSI1PK, ...(filter.reason ? { ':reason': filter.reason } : {}) },
        ...(filter.reason ? { FilterExpression: '#reason = :reason', ExpressionAttributeNames: { '#reason': 'reason' } } : {}),
        ScanIndexForward: false,
      },
      page,
      { GSI1PK },
      (item) => ({ PK: item.PK, SK: item.SK, GSI1PK: item.GSI1PK, GSI1SK: item.GSI1SK }),
      toSuppression,
    );
  }

  /** Removes the address from one list; returns the removed record, or null when it was not there. */
  async delete(accountId: string, tenantId: string | null, email: string): Promise<Suppression | null> {
    try {
      const result = await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.suppression(accountId, normaliseEmail(email), tenantId),
          ConditionExpression: 'attribute_exists(PK)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      return result.Attributes ? toSuppression(result.Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /**
   * A deleted tenant's list: removes up to one page of it (through its own GSI1 partition) and says how
   * many it removed; 0 when nothing is left. Idempotent.
   */
  async deleteTenantPage(accountId: string, tenantId: string): Promise<number> {
    const found = await gsi1PartitionKeys(this.table, keys.suppressionsByScope(accountId, tenantId), CLEANUP_PAGE);
    await deleteItems(this.table, found);
    return found.length;
  }

  /**
   * The send path's check: which of `emails` must not be sent to, looking at the account-wide list and,
   * for a tenant's email, the tenant's list too. Returns the given addresses (as given, without
   * duplicates) whose normalised form is suppressed. Strongly consistent: an address suppressed a
   * moment ago is not mailed. An erased address's lists are kept by hash (./erasures.ts): read in the same batch.
   */
  async findSuppressed(accountId: string, tenantId: string | null, emails: readonly string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const suppressed = await this.suppressedFor(accountId, tenantId, emails);
    return [...new Set(emails)].filter((email) => suppressed.has(normaliseEmail(email)));
  }

  /**
   * Why each of `emails` is suppressed, by the same strongly consistent reads as findSuppressed: the
   * normalised address -> its entry's reason (`bounce` when the account's list and the tenant's disagree
   * and either says bounce), or `erased` for an erased address's lists kept by hash (their reasons are not
   * kept). An address on no list is absent. Address validation reads this.
   */
  async suppressedFor(accountId: string, tenantId: string | null, emails: readonly string[]): Promise<Map<string, SuppressedFor>> {
    const found = new Map<string, SuppressedFor>();
    if (emails.length === 0) return found;
    const normalised = [...new Set(emails.map(normaliseEmail))];
    const itemKeys = normalised.flatMap((email) => [
      keys.suppression(accountId, email, null),
      ...(tenantId === null ? [] : [keys.suppression(accountId, email, tenantId)]),
      erasedAddressKey(accountId, email),
    ]);
    const erased = new Map(normalised.map((email) => [erasedAddressKey(accountId, email).PK, email]));
    const items = await batchGetItems(this.table, itemKeys, { consistentRead: true, projection: ['PK', 'email', 'lists', 'reason'] });
    for (const item of items) {
      const erasedEmail = erased.get(item.PK as string);
      if (erasedEmail !== undefined) {
        if (erasedSuppressionMatches(item, tenantId) && !found.has(erasedEmail)) found.set(erasedEmail, 'erased');
        continue;
      }
      const email = item.email as string;
      const reason = item.reason as SuppressionReason;
      if (found.get(email) !== 'bounce') found.set(email, reason);
    }
    return found;
  }
}
