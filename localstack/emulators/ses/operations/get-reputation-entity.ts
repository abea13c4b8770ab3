/**
 * GetReputationEntity (GET
 * /v2/email/reputation/entities/{ReputationEntityType}/{ReputationEntityReference}): a tenant's sending
 * status (../tenant-status.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getReputationEntity(state: SesState, request: SesRequest): OperationResult {
  const [type, reference] = request.params as [string, string];
  return state.tenants.getReputationEntity(type, reference);
}
