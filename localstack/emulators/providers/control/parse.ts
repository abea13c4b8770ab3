/** What the control API's operations read: the request (query and JSON body), a seed, faults, a provider, a key. */
import type { AccountSeed, Faults } from '../state';
import type { EmulatedProvider } from '../types';
import { ControlError } from './errors';

export interface ControlRequest {
  query: URLSearchParams;
  /** The JSON body of a PUT or POST (undefined when empty or for other methods). */
  body: unknown;
}

const PROVIDERS: readonly EmulatedProvider[] = ['sendgrid', 'postmark', 'mailgun'];

export function parseSeed(body: unknown): AccountSeed {
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

export function parseFaults(value: unknown): Faults {
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

export function object(value: unknown, name: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new ControlError(400, `${name} must be a JSON object.`);
}

export function provider(value: unknown): EmulatedProvider {
  if (typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value)) return value as EmulatedProvider;
  throw new ControlError(400, `provider must be one of ${PROVIDERS.join(', ')}.`);
}

export function key(value: unknown, name: string): string {
  if (typeof value === 'string' && value.trim() !== '' && value.length <= 512) return value;
  throw new ControlError(400, `${name} must be a non-empty string.`);
}
