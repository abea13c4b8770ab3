/** DeleteConfigurationSetEventDestination (DELETE /v2/email/configuration-sets/{ConfigurationSetName}/event-destinations/{EventDestinationName}). */
import { requireConfigSet } from '../config-sets';
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function deleteConfigurationSetEventDestination(state: SesState, request: SesRequest): OperationResult {
  const [setName, destName] = request.params as [string, string];
  const cs = requireConfigSet(state.store, setName);
  if (!cs.eventDestinations.some((d) => d.Name === destName)) {
    throw notFound(`Event destination <${destName}> does not exist in configuration set <${setName}>.`);
  }
  state.store.putConfigSet({ ...cs, eventDestinations: cs.eventDestinations.filter((d) => d.Name !== destName) });
  return { body: {} };
}
