/** DeleteTenant (POST /v2/email/tenants/delete; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function deleteTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.deleteTenant(await request.json());
}
