/**
 * tenant.paused and tenant.resumed (our event types; the spec names tenant pauses but no event): the
 * `data` of both, and their ids. A pause or resume is one change of the tenant's status; its id derives
 * from the tenant and the time of that change, so the stream's redelivery yields the same event.
 */
import { deterministicId } from '../ids';
import type { Tenant } from '../tenants/tenant';

export type TenantEventFields = Pick<
  Tenant,
  'id' | 'external_id' | 'name' | 'status' | 'paused_reason' | 'paused_at' | 'pause_source' | 'updated_at'
>;

export function tenantEventData(tenant: TenantEventFields): Record<string, unknown> {
  return {
    tenant_id: tenant.id,
    tenant: tenant.external_id,
    name: tenant.name,
    status: tenant.status,
    paused_reason: tenant.paused_reason,
    paused_at: tenant.paused_at,
    pause_source: tenant.pause_source,
    changed_at: tenant.updated_at,
  };
}

export function tenantEventId(tenant: Pick<Tenant, 'id' | 'updated_at'>, type: 'tenant.paused' | 'tenant.resumed'): string {
  return deterministicId('evt', Date.parse(tenant.updated_at), `${tenant.id}:${type}:${tenant.updated_at}`);
}
