/** PUT /_control/accounts: seeds (or replaces) the account of the body's api_key (../parse.ts reads it); 204. */
import type { ProviderState } from '../../state';
import type { Reply } from '../../types';
import { type ControlRequest, parseSeed } from '../parse';

export function putAccount(state: ProviderState, request: ControlRequest): Reply {
  state.accounts.put(parseSeed(request.body));
  return { status: 204 };
}
