/** ListTenantResources (POST /v2/email/tenants/resources/list; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function listTenantResources(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.listTenantResources(await request.json());
}
