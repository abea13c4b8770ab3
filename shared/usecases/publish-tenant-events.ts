/**
 * tenant.paused and tenant.resumed from the table's stream: a write that moved a tenant's status
 * (a PATCH, the service's automatic pause, an operator's resume) is the record of the event, so a crash
 * between the write and the publish loses nothing; ids derive from the change (a retry publishes the
 * same event, delivered once).
 */
import type { ServiceEvent } from '../domain/webhooks/event';
import { tenantEventData, tenantEventId, type TenantEventFields } from '../domain/webhooks/tenant-event-data';
import type { EventPublisher } from '../ports';

export interface TenantRecord {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

/** The event a write of a tenant item stands for, or null. */
export function tenantEventOf(record: TenantRecord): ServiceEvent | null {
  const after = record.newImage;
  const before = record.oldImage;
  if (record.eventName !== 'MODIFY' || !after || !before || after.type !== 'tenant' || after.deleting === true) return null;
  if (after.status === before.status) return null;
  const type = after.status === 'paused' ? 'tenant.paused' : after.status === 'active' ? 'tenant.resumed' : null;
  if (!type) return null;
  const tenant = after as unknown as TenantEventFields & { account_id: string };
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

export async function publishTenantEvents(deps: { events: Pick<EventPublisher, 'publish'> }, records: readonly TenantRecord[]): Promise<{ done: number; published: number; failure?: string }> {
  const events = records.map(tenantEventOf);
  const first = events.findIndex((event) => event !== null);
  if (first < 0) return { done: records.length, published: 0 };
  try {
    await deps.events.publish(events.filter((event): event is ServiceEvent => event !== null));
  } catch (error) {
    return { done: first, published: 0, failure: `tenant event publish failed: ${(error as Error).message}` };
  }
  return { done: records.length, published: events.filter(Boolean).length };
}
