/** DeleteEmailIdentity (DELETE /v2/email/identities/{EmailIdentity}): it leaves every tenant it was associated with (../store.ts). */
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function deleteEmailIdentity(state: SesState, request: SesRequest): OperationResult {
  const name = request.params[0]!;
  if (!state.store.deleteIdentity(name)) throw notFound(`Email identity <${name}> does not exist.`);
  state.log(`identity ${name} deleted`);
  return { body: {} };
}
