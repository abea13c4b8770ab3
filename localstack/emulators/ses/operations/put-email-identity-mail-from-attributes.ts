/** PutEmailIdentityMailFromAttributes (PUT /v2/email/identities/{EmailIdentity}/mail-from). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putEmailIdentityMailFromAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.identities.putMailFromAttributes(request.params[0]!, await request.json());
}
