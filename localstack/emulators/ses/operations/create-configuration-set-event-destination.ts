/**
 * CreateConfigurationSetEventDestination (POST /v2/email/configuration-sets/{ConfigurationSetName}/event-destinations):
 * a new named destination (../config-sets.ts reads its definition); 400 AlreadyExistsException for a name
 * the set already has.
 */
import { parseEventDestination, requireConfigSet } from '../config-sets';
import { alreadyExists } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { asObject, checkResourceName, reqString } from '../validate';

export async function createConfigurationSetEventDestination(state: SesState, request: SesRequest): Promise<OperationResult> {
  const setName = request.params[0]!;
  const body = await request.json();
  const cs = requireConfigSet(state.store, setName);
  const name = checkResourceName(reqString(body.EventDestinationName, 'EventDestinationName'), 'EventDestinationName');
  if (cs.eventDestinations.some((d) => d.Name === name)) {
    throw alreadyExists(`Event destination <${name}> already exists in configuration set <${setName}>.`);
  }
  const def = asObject(body.EventDestination, 'EventDestination');
  const destination = parseEventDestination(name, def, undefined, state.log);
  state.store.putConfigSet({ ...cs, eventDestinations: [...cs.eventDestinations, destination] });
  return { body: {} };
}
