/** GetTenant (POST /v2/email/tenants/get {TenantName}): `{Tenant}`, as CreateTenant answers it. */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkTenantName, requireTenant, tenantBody } from '../tenants';
import type { OperationResult } from '../types';

export async function getTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  return { body: { Tenant: tenantBody(requireTenant(state.store, checkTenantName(body.TenantName))) } };
}
