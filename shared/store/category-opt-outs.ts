/**
 * Category opt-outs: a recipient who unsubscribed from one category of mail (product, newsletter) of an
 * account or of one of its tenants. Stored apart from suppressions (keys.ts: PK per account and address,
 * SK per list and category), so an opt-out never blocks other mail and the suppression list stays the
 * list of addresses that must receive nothing.
 *
 * A tenant's opt-outs also carry a GSI1 partition of their own (sparse: account opt-outs have none):
 *   GSI1PK ACCOUNT#<acc>#TENANT#<ten>#OPTOUTS  GSI1SK <email>#<category>
 * so the tenant's deletion finds them without a scan.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { normaliseEmail } from '../domain/emails/address';
import type { CategoryOptOut } from '../domain/suppressions/model';
import type { OptOutCategory } from '../domain/suppressions/reasons';
import { keys } from './keys';
import { batchGetItems } from './batch-get';
import { CLEANUP_PAGE, deleteItems, gsi1PartitionKeys } from './suppressions';

import { isConditionFailure, withoutKeys, type Table } from './table';

function toOptOut(item: Record<string, any>): CategoryOptOut {
  const { type, ...rest } = withoutKeys(item);
  return { tenant: null, ...rest } as unknown as CategoryOptOut;
}

export class CategoryOptOutRepository {
  constructor(private readonly table: Table) {}

  /** Records the opt-out unless it exists (then returns the existing one). Idempotent under concurrency. */
  async add(optOut: CategoryOptOut): Promise<{ optOut: CategoryOptOut; created: boolean }> {
    const record: CategoryOptOut = { ...optOut, email: normaliseEmail(optOut.email) };
    const key = keys.categoryOptOut(record.account_id, record.email, record.tenant, record.category);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table.client.send(
          new PutCommand({
            TableName: this.table.name,
            Item: {
              ...key,
              ...(record.tenant === null ? {} : { GSI1PK: keys.optOutsByTenant(record.account_id, record.tenant), GSI1SK: `${record.email}#${record.category}` }),
              type: 'category_opt_out',
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          }),
        );
        return { optOut: record, created: true };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const existing = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: key, ConsistentRead: true }));
      if (existing.Item) return { optOut: toOptOut(existing.Item), created: false };
      if (attempt >= 5) throw new Error('category opt-out kept changing under concurrent writes');
    }
  }

  /** A deleted tenant's opt-outs: removes up to one page; how many it removed (0: none left). Idempotent. */
  async deleteTenantPage(accountId: string, tenantId: string): Promise<number> {
    const found = await gsi1PartitionKeys(this.table, keys.optOutsByTenant(accountId, tenantId), CLEANUP_PAGE);
    await deleteItems(this.table, found);
    return found.length;
  }

  /** Removes one opt-out; false when there was none. */
  async remove(accountId: string, tenantId: string | null, email: string, category: OptOutCategory): Promise<boolean> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.name,
          Key: keys.categoryOptOut(accountId, normaliseEmail(email), tenantId, category),
          ConditionExpression: 'attribute_exists(PK)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** The categories an address opted out of on one list (the account's or a tenant's). */
  async listForAddress(accountId: string, tenantId: string | null, email: string): Promise<CategoryOptOut[]> {
    const { PK, SKPrefix } = keys.categoryOptOutPrefix(accountId, normaliseEmail(email), tenantId);
    const found: CategoryOptOut[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.name,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
          ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...(result.Items ?? []).map(toOptOut));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return found;
  }

  /**
   * The send path's check for mail of a category: which of `emails` opted out of it, account-wide or
   * (for a tenant's email) from the tenant. Returns the given addresses (as given, without duplicates).
   */
  async findCategoryOptOuts(accountId: string, tenantId: string | null, emails: readonly string[], category: OptOutCategory): Promise<string[]> {
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
