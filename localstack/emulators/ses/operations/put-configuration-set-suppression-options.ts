/**
 * PutConfigurationSetSuppressionOptions (PUT /v2/email/configuration-sets/{ConfigurationSetName}/suppression-options):
 * replaces the set's SuppressionOptions, which override the account's and tenant's (../suppression-list.ts).
 */
import { requireConfigSet } from '../config-sets';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkSuppressionOptions } from '../suppression-list';
import type { OperationResult } from '../types';

export async function putConfigurationSetSuppressionOptions(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const configSet = requireConfigSet(state.store, request.params[0]!);
  const { SuppressedReasons, SuppressionScope, ValidationOptions } = body;
  const options = checkSuppressionOptions({
    SuppressedReasons: SuppressedReasons ?? [],
    ...(SuppressionScope ? { SuppressionScope } : {}),
    ...(ValidationOptions ? { ValidationOptions } : {}),
  });
  state.store.putConfigSet({ ...configSet, options: { ...configSet.options, SuppressionOptions: options } });
  return { body: {} };
}
