/** CreateEmailIdentity (POST /v2/email/identities): a domain or address identity, PENDING until verified (../identities.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function createEmailIdentity(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.identities.createEmailIdentity(await request.json());
}
