/** ListResourceTenants (POST /v2/email/resources/tenants/list; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function listResourceTenants(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.listResourceTenants(await request.json());
}
