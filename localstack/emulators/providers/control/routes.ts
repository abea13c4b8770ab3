/**
 * The table of the emulator's control API (same server as the fake providers, under /_control), each
 * route answered by a module of ./operations/:
 *   PUT    /_control/accounts   {provider, api_key, account_api_key?, region?, data, faults?} -> 204
 *          seeds (or replaces) the account of api_key; `data` is the provider's seed (../sendgrid/seed.ts,
 *          ../postmark/seed.ts, ../mailgun/seed.ts)
 *   PUT    /_control/faults     {provider, api_key, faults} -> 204: new faults, request count reset
 *   DELETE /_control/accounts?provider=&api_key=                     -> 204 (404 when unknown)
 *   GET    /_control/requests?provider=&api_key=                     -> 200 {requests: [{method, path, status, region}]}
 * Errors are 400/404 `{"error": "…"}` (./errors.ts); anything else is 404 "No control route". Keys are never echoed.
 */
import type { ProviderState } from '../state';
import type { Reply } from '../types';
import * as op from './operations';
import type { ControlRequest } from './parse';

export interface ControlRoute {
  method: string;
  path: string;
  operation: (state: ProviderState, request: ControlRequest) => Reply;
}

const ROUTES: readonly ControlRoute[] = [
  { method: 'PUT', path: '/_control/accounts', operation: op.putAccount },
  { method: 'PUT', path: '/_control/faults', operation: op.putFaults },
  { method: 'DELETE', path: '/_control/accounts', operation: op.deleteAccount },
  { method: 'GET', path: '/_control/requests', operation: op.getRequests },
];

export function findControlRoute(method: string, path: string): ControlRoute | undefined {
  return ROUTES.find((route) => route.method === method && route.path === path);
}
