/**
 * PutConfigurationSetSuppressionOptions (PUT /v2/email/configuration-sets/{ConfigurationSetName}/suppression-options; ../suppression-list.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putConfigurationSetSuppressionOptions(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.suppression.putConfigurationSetOptions(request.params[0]!, await request.json());
}
