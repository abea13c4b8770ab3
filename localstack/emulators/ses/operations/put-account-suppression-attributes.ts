/** PutAccountSuppressionAttributes (PUT /v2/email/account/suppression; ../suppression-list.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putAccountSuppressionAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.suppression.putAccountAttributes(await request.json());
}
