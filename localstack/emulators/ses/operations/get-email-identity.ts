/** GetEmailIdentity (GET /v2/email/identities/{EmailIdentity}): its verification checked first (../verification.ts). */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getEmailIdentity(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.identities.getEmailIdentity(request.params[0]!);
}
