/**
 * DeleteConfigurationSet (DELETE /v2/email/configuration-sets/{ConfigurationSetName}): the set and its
 * event destinations; it leaves every tenant it was associated with (../store.ts).
 */
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function deleteConfigurationSet(state: SesState, request: SesRequest): OperationResult {
  const name = request.params[0]!;
  if (!state.store.deleteConfigSet(name)) throw notFound(`Configuration set <${name}> does not exist.`);
  return { body: {} };
}
