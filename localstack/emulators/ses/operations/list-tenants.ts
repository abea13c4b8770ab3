/** ListTenants (POST /v2/email/tenants/list; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function listTenants(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.listTenants(await request.json());
}
