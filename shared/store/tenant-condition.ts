/**
 * A transaction item that holds only while a tenant is live: its item exists under that account and
 * external_id, with that id, and no deletion has begun. Writes that attach something to a tenant (a
 * domain, a key) carry it, so once `markDeleting` has committed nothing new can be attached: the
 * deletion's clean-up, reading strongly consistently, sees everything it has to undo.
 */
import { keys } from './keys';
import type { Table } from './table';

export interface TenantRef {
  id: string;
  account_id: string;
  external_id: string;
}

export function tenantIsLiveCheck(table: Table, tenant: TenantRef): Record<string, any> {
  return {
    ConditionCheck: {
      TableName: table.name,
      Key: keys.tenant(tenant.account_id, tenant.external_id),
      ConditionExpression: 'attribute_exists(PK) AND id = :tenant_id AND attribute_not_exists(deleting)',
      ExpressionAttributeValues: { ':tenant_id': tenant.id },
    },
  };
}
