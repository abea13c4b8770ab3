/** PutSuppressedDestination (PUT /v2/email/suppression/addresses; ../suppression-list.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putSuppressedDestination(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.suppression.putDestination(await request.json());
}
