/** GET /_control/requests?provider=&api_key=: the account's request log, `{requests: [{method, path, status, region}]}`; 404 when unknown. */
import type { ProviderState } from '../../state';
import { json, type Reply } from '../../types';
import { ControlError } from '../errors';
import { type ControlRequest, key, provider } from '../parse';

export function getRequests(state: ProviderState, request: ControlRequest): Reply {
  const account = state.accounts.get(provider(request.query.get('provider')), key(request.query.get('api_key'), 'api_key'));
  if (!account) throw new ControlError(404, 'No such account.');
  return json(200, { requests: account.log });
}
