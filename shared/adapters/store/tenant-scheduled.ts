/**
 * A tenant's scheduled emails, for its deletion to cancel them: one small item per email while it is
 * scheduled (`TENANTSCHEDULED#<ten>` / `<msg>`, the tenant's own partition, read strongly consistently).
 *
 * The item is written in the email's accept transaction together with the tenant's live condition
 * (tenantIsLiveCheck), so once the tenant is marked `deleting` no scheduled email can join it, and the
 * deletion, reading the partition after marking, sees every one that did. The write that cancels an
 * email removes its item in the same transaction; the firing (the claim that moves it to queued) removes
 * it just after, best effort: a leftover item only costs the deletion one read of an email no longer
 * scheduled.
 */
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Email } from '../../domain/emails/email';
import { keys } from './keys';
import { tenantIsLiveCheck } from './tenant-condition';
import type { Table, TransactItem } from './table';

type ScheduledEmail = Pick<Email, 'id' | 'account_id' | 'status' | 'tenant' | 'tenant_id'>;

/** Whether the email is a tenant's scheduled email (what this module keeps track of). */
function tenantOf(email: ScheduledEmail): { id: string; account_id: string; external_id: string } | null {
  if (email.status !== 'scheduled' || !email.tenant_id || !email.tenant) return null;
  return { id: email.tenant_id, account_id: email.account_id, external_id: email.tenant };
}

/** What accepting the email adds to its transaction: the tenant is live, and the email is listed for it. [] for other emails. */
export function tenantScheduledItems(table: Table, email: ScheduledEmail): TransactItem[] {
  const tenant = tenantOf(email);
  if (!tenant) return [];
  return [
    tenantIsLiveCheck(table, tenant),
    { Put: { TableName: table.name, Item: { ...keys.tenantScheduled(tenant.id, email.id), type: 'tenant_scheduled' } } },
  ];
}

/** What cancelling the email adds to its transaction: it leaves its tenant's list. */
export function forgetTenantScheduledItem(table: Table, tenantId: string, emailId: string): TransactItem {
  return { Delete: { TableName: table.name, Key: keys.tenantScheduled(tenantId, emailId) } };
}

export class TenantScheduledRepository {
  constructor(private readonly table: Table) {}

  /** Up to `limit` of the tenant's listed emails (ids, oldest first), strongly consistent. */
  async page(tenantId: string, limit: number): Promise<string[]> {
    const result = await this.table.client.send(
      new QueryCommand({
        TableName: this.table.name,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.tenantScheduledPartition(tenantId) },
        ProjectionExpression: 'SK',
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => String(item.SK));
  }

  /** The email leaves its tenant's list (it fired, or is no longer scheduled). Idempotent. */
  async forget(tenantId: string, emailId: string): Promise<void> {
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.tenantScheduled(tenantId, emailId) }));
  }
}
