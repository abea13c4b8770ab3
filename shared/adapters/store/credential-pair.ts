/**
 * A secret-bearing credential (an API key, an SMTP credential) is two items written and deleted together:
 * its listing item under the account, and the lookup item keyed by its secret's hash (what
 * authentication reads: `keys.apiKeyHash`, with the credential's `kind`). What both repositories share.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';
import { cancelledConditionIndexes, isTransactionConflict, queryAll, transactWrite, type Table } from './table';
import { tenantIsLiveCheck, type TenantRef } from './tenant-condition';

type Key = { PK: string; SK: string };

/**
 * Puts both items (neither may exist); a credential limited to a tenant only while the tenant is live, so
 * none can outlive its tenant's deletion. `tenant_gone` when that condition failed.
 */
export async function putCredentialPair(
  table: Table,
  items: [Record<string, unknown>, Record<string, unknown>],
  tenant: TenantRef | null,
): Promise<'created' | 'tenant_gone'> {
  try {
    await transactWrite(table, [
      ...items.map((Item) => ({ Put: { TableName: table.name, Item, ConditionExpression: 'attribute_not_exists(PK)' } })),
      ...(tenant ? [tenantIsLiveCheck(table, tenant)] : []),
    ]);
    return 'created';
  } catch (error) {
    if (tenant && cancelledConditionIndexes(error).includes(2)) return 'tenant_gone';
    throw error;
  }
}

/** What deleting a credential did: `beyond_reach` when the caller's `mayDelete` refused its listing item. */
export type DeleteCredentialOutcome = 'deleted' | 'not_found' | 'beyond_reach';

/**
 * Deletes both items at once; `not_found` when the listing item does not exist (already revoked, or never).
 * `mayDelete` sees the listing item first (read strongly consistent; a credential's reach never changes).
 */
export async function deleteCredentialPair(
  table: Table,
  listingKey: Key,
  mayDelete: (listing: Record<string, unknown>) => boolean = () => true,
): Promise<DeleteCredentialOutcome> {
  for (let attempt = 1; ; attempt++) {
    const listing = await table.client.send(new GetCommand({ TableName: table.name, Key: listingKey, ConsistentRead: true }));
    const hash = listing.Item?.secret_hash as string | undefined;
    if (!hash) return 'not_found';
    if (!mayDelete(listing.Item!)) return 'beyond_reach';
    try {
      await table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: table.name, Key: listingKey, ConditionExpression: 'attribute_exists(PK)' } },
            { Delete: { TableName: table.name, Key: keys.apiKeyHash(hash) } },
          ],
        }),
      );
      return 'deleted';
    } catch (error) {
      // Deleted concurrently by another request: the credential is gone either way.
      if (cancelledConditionIndexes(error).includes(0)) return 'not_found';
      // Racing a concurrent delete of the same items: read again and retry.
      if (isTransactionConflict(error) && attempt < 5) continue;
      throw error;
    }
  }
}

/** Ids of the credentials under `PK`/`SKPrefix` limited to a tenant (strongly consistent: an account has few). */
export function tenantCredentialIds(table: Table, { PK, SKPrefix }: { PK: string; SKPrefix: string }, tenantId: string): Promise<string[]> {
  return queryAll(
    table,
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      FilterExpression: 'tenant = :tenant',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix, ':tenant': tenantId },
      ProjectionExpression: 'id',
      ConsistentRead: true,
    },
    (item) => item.id as string,
  );
}
