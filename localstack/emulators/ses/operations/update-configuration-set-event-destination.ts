/**
 * UpdateConfigurationSetEventDestination (PUT /v2/email/configuration-sets/{ConfigurationSetName}/event-destinations/{EventDestinationName}):
 * fields present in the definition replace the stored ones; absent fields are kept.
 */
import { parseEventDestination, requireConfigSet } from '../config-sets';
import { notFound } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { asObject } from '../validate';

export async function updateConfigurationSetEventDestination(state: SesState, request: SesRequest): Promise<OperationResult> {
  const [setName, destName] = request.params as [string, string];
  const body = await request.json();
  const cs = requireConfigSet(state.store, setName);
  const existing = cs.eventDestinations.find((d) => d.Name === destName);
  if (!existing) throw notFound(`Event destination <${destName}> does not exist in configuration set <${setName}>.`);
  const def = asObject(body.EventDestination, 'EventDestination');
  const updated = parseEventDestination(destName, def, existing, state.log);
  state.store.putConfigSet({ ...cs, eventDestinations: cs.eventDestinations.map((d) => (d.Name === destName ? updated : d)) });
  return { body: {} };
}
