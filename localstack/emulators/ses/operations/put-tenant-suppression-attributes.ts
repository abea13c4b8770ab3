/** A tenant's suppression attributes (POST /v2/email/tenant/suppression): its scope and reasons (../suppression-list.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putTenantSuppressionAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.suppression.putTenantAttributes(await request.json());
}
