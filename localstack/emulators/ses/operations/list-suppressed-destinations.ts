/**
 * ListSuppressedDestinations (GET
 * /v2/email/suppression/addresses?Reason&StartDate&EndDate&NextToken&PageSize&TenantName; ../suppression-list.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function listSuppressedDestinations(state: SesState, request: SesRequest): OperationResult {
  return state.suppression.listDestinations(request.query);
}
