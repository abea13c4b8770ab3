/**
 * CreateConfigurationSet (POST /v2/email/configuration-sets): a new set with no event destinations, its
 * options (TrackingOptions, DeliveryOptions, ReputationOptions, SendingOptions, Tags, SuppressionOptions,
 * VdmOptions, ArchivingOptions) kept as given; 400 AlreadyExistsException for a name in use.
 */
import { alreadyExists } from '../errors';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { checkSuppressionOptions } from '../suppression-list';
import { CONFIGURATION_SET_OPTION_KEYS, type OperationResult } from '../types';
import { asObject, checkResourceName, optArray, reqString } from '../validate';

export async function createConfigurationSet(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const name = checkResourceName(reqString(body.ConfigurationSetName, 'ConfigurationSetName'), 'ConfigurationSetName');
  if (state.store.getConfigSet(name)) throw alreadyExists(`Configuration set <${name}> already exists.`);
  const options: Record<string, unknown> = {};
  for (const key of CONFIGURATION_SET_OPTION_KEYS) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (key === 'Tags') optArray(value, key);
    else asObject(value, key);
    options[key] = key === 'SuppressionOptions' ? checkSuppressionOptions(asObject(value, key)) : value;
  }
  state.store.putConfigSet({ name, createdAt: new Date().toISOString(), options, eventDestinations: [] });
  return { body: {} };
}
