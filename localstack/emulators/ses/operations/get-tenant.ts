/** GetTenant (POST /v2/email/tenants/get; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function getTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.getTenant(await request.json());
}
