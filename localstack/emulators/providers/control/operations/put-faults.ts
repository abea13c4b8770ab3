/** PUT /_control/faults {provider, api_key, faults}: the account's new faults, its request count reset; 204, 404 when unknown. */
import type { ProviderState } from '../../state';
import type { Reply } from '../../types';
import { ControlError } from '../errors';
import { type ControlRequest, key, object, parseFaults, provider } from '../parse';

export function putFaults(state: ProviderState, request: ControlRequest): Reply {
  const o = object(request.body, 'body');
  const account = state.accounts.get(provider(o.provider), key(o.api_key, 'api_key'));
  if (!account) throw new ControlError(404, 'No such account.');
  account.seed.faults = parseFaults(o.faults);
  account.served = 0;
  return { status: 204 };
}
