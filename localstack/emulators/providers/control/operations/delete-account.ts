/** DELETE /_control/accounts?provider=&api_key=: removes the account; 204, 404 when unknown. */
import type { ProviderState } from '../../state';
import type { Reply } from '../../types';
import { ControlError } from '../errors';
import { type ControlRequest, key, provider } from '../parse';

export function deleteAccount(state: ProviderState, request: ControlRequest): Reply {
  const found = state.accounts.delete(provider(request.query.get('provider')), key(request.query.get('api_key'), 'api_key'));
  if (!found) throw new ControlError(404, 'No such account.');
  return { status: 204 };
}
