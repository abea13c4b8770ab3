/** GetSuppressedDestination (GET /v2/email/suppression/addresses/{EmailAddress}?TenantName; ../suppression-list.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getSuppressedDestination(state: SesState, request: SesRequest): OperationResult {
  return state.suppression.getDestination(request.params[0]!, request.query.get('TenantName'));
}
