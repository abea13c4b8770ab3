/** CreateTenant (POST /v2/email/tenants; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function createTenant(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.createTenant(await request.json());
}
