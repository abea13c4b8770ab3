/** DeleteEmailIdentity (DELETE /v2/email/identities/{EmailIdentity}): it leaves every tenant it was associated with. */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function deleteEmailIdentity(state: SesState, request: SesRequest): OperationResult {
  return state.identities.deleteEmailIdentity(request.params[0]!);
}
