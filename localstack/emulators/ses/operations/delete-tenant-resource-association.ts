/** DeleteTenantResourceAssociation (POST /v2/email/tenants/resources/delete; ../tenants.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function deleteTenantResourceAssociation(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.deleteAssociation(await request.json());
}
