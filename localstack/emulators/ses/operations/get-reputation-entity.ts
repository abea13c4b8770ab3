/**
 * GetReputationEntity (GET /v2/email/reputation/entities/{ReputationEntityType}/{ReputationEntityReference})
 * for a tenant's ARN: its sending status (../tenant-status.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkEntityType, reputationEntityBody } from '../tenant-status';
import { tenantByArn } from '../tenants';
import type { OperationResult } from '../types';

export function getReputationEntity(state: SesState, request: SesRequest): OperationResult {
  const [type, reference] = request.params as [string, string];
  checkEntityType(type);
  return { body: { ReputationEntity: reputationEntityBody(tenantByArn(state.store, reference)) } };
}
