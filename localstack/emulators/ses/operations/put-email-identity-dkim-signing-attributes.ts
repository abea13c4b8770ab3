/**
 * PutEmailIdentityDkimSigningAttributes (PUT /v2/email/identities/{EmailIdentity}/dkim/signing): Easy DKIM
 * or BYODKIM (../identities.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putEmailIdentityDkimSigningAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.identities.putDkimSigningAttributes(request.params[0]!, await request.json());
}
