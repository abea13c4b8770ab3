/**
 * UpdateReputationEntityCustomerManagedStatus (PUT
 * /v2/email/reputation/entities/{ReputationEntityType}/{ReputationEntityReference}/customer-managed-status;
 * ../tenant-status.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function updateReputationEntityCustomerManagedStatus(state: SesState, request: SesRequest): Promise<OperationResult> {
  const [type, reference] = request.params as [string, string];
  return state.tenants.updateCustomerManagedStatus(type, reference, await request.json());
}
