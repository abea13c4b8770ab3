/**
 * Category opt-outs: a recipient who unsubscribed from one category of mail (product, newsletter) of an
 * account or of one of its tenants. Stored apart from suppressions (keys.ts: PK per account and address,
 * SK per list and category), so an opt-out never blocks other mail and the suppression list stays the
 * list of addresses that must receive nothing.
 *
 * Each opt-out also carries a GSI1 partition per list and category, keyed by its id (newest first):
 *   GSI1PK ACCOUNT#<acc>[#TENANT#<ten>]#OPTOUTS#<category>#<shard>  GSI1SK <cop id>
 * so GET /suppressions?category= lists one category of one list with the category as a key condition
 * (a cursor is bound to that partition), and a tenant's deletion finds its opt-outs without a scan.
 * Opt-outs written before that index carry no id (one is derived from the item on read) and, for a
 * tenant, the older partition ACCOUNT#<acc>#TENANT#<ten>#OPTOUTS / <email>#<category>, which the
 * tenant's deletion still reads; the account's had no index and are not listed (they still block sends,
 * show in a lookup by address and can be removed).
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseEmail } from '../../domain/mail/address';
import { categoryOptOutSchema, derivedOptOutId, newOptOutId, type CategoryOptOut } from '../../domain/suppressions/model';
import { OPT_OUT_CATEGORIES, type OptOutCategory } from '../../domain/suppressions/reasons';
import type { Page } from './cursor';
import { decodeItem } from './decode';
import { keys } from './keys';
import { batchGetItems } from './batch-get';
import { queryGsi1NewestFirst, type PageRequest } from './paginate';
import { CLEANUP_PAGE, deleteItems, gsi1PartitionKeys } from './suppressions';

import { isConditionFailure, itemOfRefusedWrite, queryAllWithPrefix, type Table } from './table';
import { addNewRecords } from './add-new-records';

/** An opt-out to record; without an id, one is made from its created_at. */
export type NewCategoryOptOut = Omit<CategoryOptOut, 'id'> & { id?: string };

/**
 * An opt-out item in today's layout, whatever its age (reads go through here). No `tenant`: the account's.
 * Items written before 3f3339d (2026-11-23, the per-category index) have no `id`: one is derived from the
 * item (its created_at and key), the same at every read.
 */
function upgradeOptOutItem<T extends Record<string, unknown>>(item: T): T {
  return { tenant: null, ...item, id: item.id || derivedOptOutId(String(item.created_at), `${String(item.PK)}/${String(item.SK)}`) };
}

/** The opt-out as stored: its id (made from created_at when it has none) and its address normalised. */
function recordOf(optOut: NewCategoryOptOut): CategoryOptOut {
  return { ...optOut, id: optOut.id ?? newOptOutId(Date.parse(optOut.created_at)), email: normaliseEmail(optOut.email) };
}

/** The item of an opt-out: keyed by its list, address and category, listed per category by GSI1 (newest first). */
function itemOf(record: CategoryOptOut): Record<string, unknown> {
  return {
    ...keys.categoryOptOut(record.account_id, record.email, record.tenant, record.category),
    GSI1PK: keys.optOutsByCategory(record.account_id, record.tenant, record.category),
    GSI1SK: record.id,
    type: 'category_opt_out',
    ...record,
  };
}

function toOptOut(item: Record<string, unknown>): CategoryOptOut {
  return decodeItem(categoryOptOutSchema, upgradeOptOutItem(item), 'CategoryOptOut');
}

export class CategoryOptOutRepository {
  constructor(private readonly table: Table) {}

  /**
   * Records the opt-out unless its (list, address, category) has one; then returns the existing one
   * (unchanged: its id and created_at stay). Concurrent adds create one record.
   */
  async add(optOut: NewCategoryOptOut): Promise<{ optOut: CategoryOptOut; created: boolean }> {
    const record = recordOf(optOut);
    const key = keys.categoryOptOut(record.account_id, record.email, record.tenant, record.category);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: itemOf(record),
            ConditionExpression: 'attribute_not_exists(PK)',
            // A refused put answers the opt-out that is there: one round trip, not a put and a read.
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        return { optOut: record, created: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        const there = itemOfRefusedWrite(error);
        if (there) return { optOut: toOptOut(there), created: false };
      }
      const existing = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
      if (existing.Item) return { optOut: toOptOut(existing.Item), created: false };
      // Removed between our put and our read: put again.
      if (attempt >= 5) throw new Error('category opt-out kept changing under concurrent writes');
    }
  }

  /**
   * `add` for each opt-out, results in input order: NEW_ITEMS_PER_TRANSACTION to a transaction
   * (./add-new-records.ts), a refused one answering the opt-out that is there; one given twice is added once.
   */
  async addMany(optOuts: readonly NewCategoryOptOut[]): Promise<{ optOut: CategoryOptOut; created: boolean }[]> {
    const added = await addNewRecords(this.table, optOuts.map(recordOf), {
      itemOf,
      fromItem: toOptOut,
      addOne: async (record) => {
        const { optOut, created } = await this.add(record);
        return { record: optOut, created };
      },
    });
    return added.map(({ record, created }) => ({ optOut: record, created }));
  }

  /** One list's opt-outs of one category (the account's, or a tenant's), newest first, through GSI1. */
  list(accountId: string, tenantId: string | null, category: OptOutCategory, page: PageRequest): Promise<Page<CategoryOptOut>> {
    return queryGsi1NewestFirst(this.table, keys.optOutsByCategory(accountId, tenantId, category), page, toOptOut);
  }

  /**
   * A deleted tenant's opt-outs: removes up to one page, from the first of its index partitions that
   * still has some; how many it removed (0: none left). Idempotent.
   */
  async deleteTenantPage(accountId: string, tenantId: string): Promise<number> {
    const partitions = [
      ...OPT_OUT_CATEGORIES.map((category) => keys.optOutsByCategory(accountId, tenantId, category)),
      keys.optOutsByTenant(accountId, tenantId),
    ];
    for (const partition of partitions) {
      const found = await gsi1PartitionKeys(this.table, partition, CLEANUP_PAGE);
      if (found.length === 0) continue;
      await deleteItems(this.table, found);
      return found.length;
    }
    return 0;
  }

  /** Removes one opt-out (re-subscribe); returns the removed record, or null when there was none. */
  async delete(accountId: string, tenantId: string | null, email: string, category: OptOutCategory): Promise<CategoryOptOut | null> {
    try {
      const result = await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.categoryOptOut(accountId, normaliseEmail(email), tenantId, category),
          ConditionExpression: 'attribute_exists(PK)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      return result.Attributes ? toOptOut(result.Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  /** Removes one opt-out; false when there was none. */
  async remove(accountId: string, tenantId: string | null, email: string, category: OptOutCategory): Promise<boolean> {
    return (await this.delete(accountId, tenantId, email, category)) !== null;
  }

  /** The categories an address opted out of on one list (the account's or a tenant's). Strongly consistent. */
  listForAddress(accountId: string, tenantId: string | null, email: string): Promise<CategoryOptOut[]> {
    return queryAllWithPrefix(this.table, keys.categoryOptOutPrefix(accountId, normaliseEmail(email), tenantId), toOptOut);
  }

  /**
   * The send path's check for mail of a category: which of `emails` opted out of it, account-wide or
   * (for a tenant's email) from the tenant. Returns the given addresses (as given, without duplicates).
   */
  async findCategoryOptOuts(
    accountId: string,
    tenantId: string | null,
    emails: readonly string[],
    category: OptOutCategory,
  ): Promise<string[]> {
    if (emails.length === 0) return [];
    const normalised = [...new Set(emails.map(normaliseEmail))];
    const itemKeys = normalised.flatMap((email) => [
      keys.categoryOptOut(accountId, email, null, category),
      ...(tenantId === null ? [] : [keys.categoryOptOut(accountId, email, tenantId, category)]),
    ]);
    const items = await batchGetItems(this.table, itemKeys, { consistentRead: true, projection: ['email'] });
    const optedOut = new Set(items.map((item) => item.email as string));
    return [...new Set(emails)].filter((email) => optedOut.has(normaliseEmail(email)));
  }
}
