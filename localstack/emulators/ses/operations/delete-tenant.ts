/** DeleteTenant (POST /v2/email/tenants/delete {TenantName}): its associations go with it; the resources themselves stay. */
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkTenantName } from '../tenants';
import type { OperationResult } from '../types';

export async function deleteTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const name = checkTenantName(body.TenantName);
  if (!state.store.deleteTenant(name)) throw notFound(`Tenant <${name}> does not exist.`);
  state.log(`tenant ${name} deleted`);
  return { body: {} };
}
