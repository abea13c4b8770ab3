/** GetConfigurationSetEventDestinations (GET /v2/email/configuration-sets/{ConfigurationSetName}/event-destinations). */
import { requireConfigSet } from '../config-sets';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getConfigurationSetEventDestinations(state: SesState, request: SesRequest): OperationResult {
  const cs = requireConfigSet(state.store, request.params[0]!);
  return { body: { EventDestinations: cs.eventDestinations } };
}
