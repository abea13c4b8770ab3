/**
 * What tenant events read of the table's stream (shared/usecases/tenants/publish-tenant-events.ts): a MODIFY of
 * a live tenant item that moved its status is
 *   tenant_paused    to `paused` (a PATCH, the service's automatic pause);
 *   tenant_resumed   to `active` (a PATCH, an operator's resume).
 * Other writes (the same status, a tenant being deleted, inserts and removals, other items) stand for
 * nothing here; a moved tenant whose fields are not a tenant's is skipped (stream-record.ts).
 */
import { tenantSchema } from '../../domain/tenants/tenant';
import type { TenantEventFields } from '../../domain/webhooks/tenant-event-data';
import { parseImage, type StreamReader, type StreamWrite } from './stream-record';

/** The tenant as its events carry it. */
export type ChangedTenant = TenantEventFields & { account_id: string };

export type TenantStatusChange = { kind: 'tenant_paused' | 'tenant_resumed'; tenant: ChangedTenant };

const changedTenant = tenantSchema.pick({
  id: true,
  account_id: true,
  external_id: true,
  name: true,
  status: true,
  paused_reason: true,
  paused_at: true,
  pause_source: true,
  updated_at: true,
});

function changesOf(write: StreamWrite): TenantStatusChange[] {
  const { newImage: after, oldImage: before } = write;
  if (write.eventName !== 'MODIFY' || !after || !before || after.type !== 'tenant' || after.deleting === true) return [];
  if (after.status === before.status) return [];
  const kind = after.status === 'paused' ? 'tenant_paused' : after.status === 'active' ? 'tenant_resumed' : null;
  return kind ? [{ kind, tenant: parseImage(changedTenant, after) }] : [];
}

/** Tenant events' reader: a tenant it cannot read is skipped. */
export const tenantStatusChanges: StreamReader<TenantStatusChange> = { onMalformed: 'skip', changesOf };
