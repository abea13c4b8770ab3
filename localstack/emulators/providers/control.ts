/**
 * The emulator's control API (same server as the fake providers, under /_control):
 *   PUT    /_control/accounts   {provider, api_key, account_api_key?, region?, data, faults?} -> 204
 *          seeds (or replaces) the account of api_key; `data` is the provider's seed (sendgrid-seed.ts,
 *          postmark-seed.ts, mailgun-seed.ts)
 *   PUT    /_control/faults     {provider, api_key, faults} -> 204: new faults, request count reset
 *   DELETE /_control/accounts?provider=&api_key=                     -> 204 (404 when unknown)
 *   GET    /_control/requests?provider=&api_key=                     -> 200 {requests: [{method, path, status, region}]}
 * Errors are 400/404 `{"error": "…"}`. Keys are never echoed.
 */
import type { AccountSeed, AccountStore, Faults } from './accounts';
import type { EmulatedProvider, Reply } from './types';
import { json } from './types';

const PROVIDERS: readonly EmulatedProvider[] = ['sendgrid', 'postmark', 'mailgun'];

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function handleControl(store: AccountStore, method: string, path: string, query: URLSearchParams, body: unknown): Reply {
  try {
    if (path === '/_control/accounts' && method === 'PUT') {
      store.put(parseSeed(body));
      return { status: 204 };
    }
    if (path === '/_control/faults' && method === 'PUT') {
      const o = object(body, 'body');
      const account = store.get(provider(o.provider), key(o.api_key, 'api_key'));
      if (!account) throw new ControlError(404, 'No such account.');
      account.seed.faults = parseFaults(o.faults);
      account.served = 0;
      return { status: 204 };
    }
    if (path === '/_control/accounts' && method === 'DELETE') {
      const found = store.delete(provider(query.get('provider')), key(query.get('api_key'), 'api_key'));
      if (!found) throw new ControlError(404, 'No such account.');
      return { status: 204 };
    }
    if (path === '/_control/requests' && method === 'GET') {
      const account = store.get(provider(query.get('provider')), key(query.get('api_key'), 'api_key'));
      if (!account) throw new ControlError(404, 'No such account.');
      return json(200, { requests: account.log });
    }
    throw new ControlError(404, `No control route ${method} ${path}.`);
  } catch (err) {
    if (err instanceof ControlError) return json(err.status, { error: err.message });
    throw err;
  }
}

function parseSeed(body: unknown): AccountSeed {
  const o = object(body, 'body');
  const p = provider(o.provider);
  const region = o.region ?? 'us';
  if (region !== 'us' && region !== 'eu') throw new ControlError(400, 'region must be us or eu.');
  if (p === 'postmark' && region !== 'us') throw new ControlError(400, 'Postmark has a single region (us).');
  const accountKey = o.account_api_key === undefined || o.account_api_key === null ? undefined : key(o.account_api_key, 'account_api_key');
  if (accountKey !== undefined && p !== 'postmark') throw new ControlError(400, 'account_api_key is for postmark only.');
  return {
    provider: p,
    api_key: key(o.api_key, 'api_key'),
    account_api_key: accountKey,
    region,
    data: withDefaults(p, object(o.data, 'data')),
    faults: parseFaults(o.faults),
  };
}

function parseFaults(value: unknown): Faults {
  if (value === undefined || value === null) return {};
  const o = object(value, 'faults');
  const count = (name: string): number | undefined => {
    const v = o[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new ControlError(400, `faults.${name} must be a non-negative integer.`);
    return v;
  };
  const paths = o.forbidden_paths;
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((x) => typeof x === 'string' && x.startsWith('/')))) {
    throw new ControlError(400, 'faults.forbidden_paths must be a list of paths starting with /.');
  }
  if (o.unavailable !== undefined && typeof o.unavailable !== 'boolean')
    throw new ControlError(400, 'faults.unavailable must be a boolean.');
  return {
    rate_limit_after_requests: count('rate_limit_after_requests'),
    rate_limit_count: count('rate_limit_count'),
    retry_after_seconds: count('retry_after_seconds'),
    unavailable: o.unavailable as boolean | undefined,
    forbidden_paths: paths as string[] | undefined,
  };
}

/** Missing top-level collections become empty ones, so a partial seed never breaks a route. */
function withDefaults(p: EmulatedProvider, data: Record<string, unknown>): Record<string, unknown> {
  if (p === 'postmark') {
    return { server: {}, message_streams: [], suppressions: {}, templates: [], domains: [], webhooks: [], ...data };
  }
  if (p === 'mailgun') return { domains: [], account_webhooks: [], ...data };
  return data;
}

function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ControlError(400, `${name} must be a JSON object.`);
}

function provider(value: unknown): EmulatedProvider {
  if (typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value)) return value as EmulatedProvider;
  throw new ControlError(400, `provider must be one of ${PROVIDERS.join(', ')}.`);
}

function key(value: unknown, name: string): string {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= 512) return value;
  throw new ControlError(400, `${name} must be a non-empty string.`);
}
