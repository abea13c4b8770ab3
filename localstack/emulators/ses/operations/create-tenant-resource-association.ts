/**
 * CreateTenantResourceAssociation (POST /v2/email/tenants/resources): an identity or configuration set of
 * this emulator, by ARN (../tenants.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function createTenantResourceAssociation(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.tenants.createAssociation(await request.json());
}
