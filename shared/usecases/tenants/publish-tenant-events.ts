/**
 * tenant.paused and tenant.resumed, account.paused and account.resumed from the table's stream: a write that
 * moved a tenant's status (a PATCH, the service's automatic pause or reputation brake, an operator's resume)
 * or an account's (the reputation brake, an operator's pause or resume) is the record of the event
 * (shared/adapters/store/tenant-status-changes.ts, account-status-changes.ts), so a crash between the write and
 * the publish loses nothing; ids derive from the change (a retry publishes the same event, delivered once).
 */
import type { ServiceEvent } from '../../domain/webhooks/event';
import { tenantEventData, tenantEventId } from '../../domain/webhooks/tenant-event-data';
import { accountEventData, accountEventId } from '../../domain/webhooks/account-event-data';
import type { EventPublisher } from '../../ports/events';
import type { StreamRecordChanges } from '../../adapters/store/stream-record';
import type { TenantStatusChange } from '../../adapters/store/tenant-status-changes';
import type { AccountStatusChange } from '../../adapters/store/account-status-changes';

/** One stream record's changes, in stream order. */
export type TenantRecord = Pick<StreamRecordChanges<TenantStatusChange | AccountStatusChange>, 'changes'>;

/** The event a change of a tenant's or an account's status stands for. */
export function tenantEventOf(change: TenantStatusChange | AccountStatusChange): ServiceEvent {
  if ('account' in change) {
    const type = change.kind === 'account_paused' ? 'account.paused' : 'account.resumed';
    const { account } = change;
    return {
      id: accountEventId(account, type),
      type,
      account_id: account.id,
      tenant: null,
      created_at: account.updated_at,
      data: accountEventData(account),
    };
  }
  const type = change.kind === 'tenant_paused' ? 'tenant.paused' : 'tenant.resumed';
  const { tenant } = change;
  return {
    id: tenantEventId(tenant, type),
    type,
    account_id: tenant.account_id,
    // Not a tenant-scoped event: endpoints filtered to tenants only get email events (spec).
    tenant: null,
    created_at: tenant.updated_at,
    data: tenantEventData(tenant),
  };
}

export async function publishTenantEvents(
  deps: { events: Pick<EventPublisher, 'publish'> },
  records: readonly TenantRecord[],
): Promise<{ done: number; published: number; failure?: string }> {
  const first = records.findIndex((record) => record.changes.length > 0);
  if (first < 0) return { done: records.length, published: 0 };
  const events = records.flatMap((record) => record.changes.map(tenantEventOf));
  try {
    await deps.events.publish(events);
  } catch (error) {
    return { done: first, published: 0, failure: `tenant event publish failed: ${(error as Error).message}` };
  }
  return { done: records.length, published: events.length };
}
