/**
 * A transaction item that holds only while a tenant is live: its item exists under that account and
 * external_id, with that id, and no deletion has begun. Writes that attach something to a tenant (a
 * domain, a key) carry it, so once `markDeleting` has committed nothing new can be attached: the
 * deletion's clean-up, reading strongly consistently, sees everything it has to undo.
 */
import { keys } from './keys';
import type { Table, TransactItem } from './table';

export interface TenantRef {
  id: string;
  account_id: string;
  external_id: string;
}

export function tenantIsLiveCheck(table: Table, tenant: TenantRef): { ConditionCheck: NonNullable<TransactItem['ConditionCheck']> } {
  return {
    ConditionCheck: {
      TableName: table.name,
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      ConditionExpression: 'attribute_exists(PK) AND id = :tenant_id AND attribute_not_exists(deleting)',
      ExpressionAttributeValues: { ':tenant_id': tenant.id },
    },
  };
}

/**
 * The same condition, on an Update that records the endpoint in the tenant's `webhook_ids`: written in the
 * endpoint's transaction, so an endpoint naming the tenant exists only if the tenant was live when it was
 * written, and then the tenant's deletion (which reads `webhook_ids` after marking it) finds it.
 */
export function tenantTakesWebhook(table: Table, tenant: TenantRef, webhookId: string): TransactItem {
  const check = tenantIsLiveCheck(table, tenant).ConditionCheck;
  return {
    Update: {
      ...check,
      UpdateExpression: 'ADD webhook_ids :webhook',
      ExpressionAttributeValues: { ...check.ExpressionAttributeValues, ':webhook': new Set([webhookId]) },
    },
  };
}
