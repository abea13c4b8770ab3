/**
 * The one door adapters use to reach a provider: a GET with a 10 s timeout that answers the parsed JSON
 * body, or throws a ProviderError saying why reading stopped:
 *   network error, timeout, 5xx, a 2xx body that is not JSON  -> unavailable
 *   429                                                        -> rate_limited (retry-after.ts)
 *   401                                                        -> auth
 *   403                                                        -> not_permitted, or auth where the adapter
 *                                                                 says a 403 means a bad key (checkAccess)
 *   404 and other 4xx                                          -> not_permitted (this resource, with
 *                                                                 these credentials; others may work)
 * unless the adapter accepts the status and handles it itself (`accept`). Messages name the provider,
 * the status and the path, and quote the provider's own error text; every secret given (the key, an
 * encoded form of it) is scrubbed from them. Nothing is logged here.
 */
import { PROVIDER_LABELS, type ProviderName } from '../../domain/imports/source';
import { ProviderError, type ProviderFailure } from '../../ports/provider-source';
import { retryAfterSeconds } from './retry-after';

export const DEFAULT_TIMEOUT_MS = 10_000;
const QUOTE_LIMIT = 200;

export interface ProviderHttpOptions {
  provider: ProviderName;
  /** Sent on every request (auth, Accept). */
  headers: Record<string, string>;
  /** Values never to appear in an error message (the key and any encoding of it). */
  secrets: readonly string[];
  /** What the credential is called in messages ("API key", "server token"). */
  credentialName?: string;
  timeoutMs?: number;
  now?: () => number;
}

/** What every adapter constructor accepts besides credentials and base URLs. */
export interface AdapterOptions {
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

export interface RequestOptions {
  /** Statuses the caller handles itself: answered instead of thrown. */
  accept?: readonly number[];
  /** What a 403 means on this call; default not_permitted. */
  forbidden?: 'auth' | 'not_permitted';
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON; null for an empty body; the text itself when an accepted non-2xx body is not JSON. */
  body: unknown;
}

export class ProviderHttp {
  private readonly label: string;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ProviderHttpOptions) {
    this.label = PROVIDER_LABELS[options.provider];
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  async get(url: string, request: RequestOptions = {}): Promise<ProviderResponse> {
    const path = pathOf(url);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'GET',
        headers: this.options.headers,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (err) {
      throw this.fail({
        kind: 'unavailable',
        message: `${this.label} could not be reached (GET ${path}): ${networkReason(err, this.timeoutMs)}`,
      });
    }
    const { status, headers } = response;
    const ok = status >= 200 && status < 300;
    if (ok || request.accept?.includes(status)) {
      const body = parseJson(text);
      if (body === undefined && ok) {
        throw this.fail({ kind: 'unavailable', message: `${this.label} answered GET ${path} with a body that is not JSON` });
      }
      return { status, headers, body: body === undefined ? text : body };
    }
    throw this.fail(this.failureFor(status, headers, text, path, request));
  }

  private failureFor(status: number, headers: Headers, text: string, path: string, request: RequestOptions): ProviderFailure {
    const said = quote(text);
    const where = `(${status} on GET ${path})${said}`;
    const credential = this.options.credentialName ?? 'API key';
    if (status === 429) {
      const retry = retryAfterSeconds(headers, parseJson(text) ?? null, this.now());
      return {
        kind: 'rate_limited',
        retryAfterSeconds: retry,
        message: `${this.label} is rate limiting requests; retry in ${retry} s ${where}`,
      };
    }
    if (status >= 500) return { kind: 'unavailable', message: `${this.label} is unavailable ${where}` };
    if (status === 401 || (status === 403 && request.forbidden === 'auth')) {
      return { kind: 'auth', message: `${this.label} rejected the ${credential} ${where}` };
    }
    if (status === 403) return { kind: 'not_permitted', message: `${this.label} does not let this ${credential} read this ${where}` };
    if (status === 404) return { kind: 'not_permitted', message: `${this.label} has nothing this ${credential} can read here ${where}` };
    return { kind: 'not_permitted', message: `${this.label} refused the request ${where}` };
  }

  private fail(failure: ProviderFailure): ProviderError {
    return new ProviderError({ ...failure, message: redact(failure.message, this.options.secrets) });
  }
}

/** `text` with every secret replaced (secrets shorter than 4 characters are too common to scrub). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** The parsed body, null when empty, undefined when it is not JSON. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's own error text, from its usual error shapes, as `: "…"` (or nothing). */
function quote(text: string): string {
  const body = parseJson(text);
  let said: string | null = null;
  if (body === undefined) said = text.trim();
  else if (typeof body === 'object' && body !== null) {
    const o = body as Record<string, unknown>;
    const first = Array.isArray(o.errors) ? (o.errors[0] as Record<string, unknown> | undefined) : undefined;
    const candidate = first?.message ?? o.Message ?? o.message ?? o.Reason;
    if (typeof candidate === 'string') said = candidate;
  }
  if (!said) return '';
  const short = said.length > QUOTE_LIMIT ? `${said.slice(0, QUOTE_LIMIT)}…` : said;
  return `: "${short.replace(/\s+/g, ' ')}"`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}

/** Why fetch failed, in a few words (read by shape: fetch's errors may come from another realm). Also the Cloudflare DNS host's. */
export function networkReason(err: unknown, timeoutMs: number): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: unknown; message?: unknown; cause?: unknown };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (typeof e.cause === 'object' && e.cause !== null ? e.cause : {}) as { code?: unknown; message?: unknown };
  if (typeof cause.code === 'string') return cause.code;
  if (typeof cause.message === 'string') return cause.message;
  return typeof e.message === 'string' ? e.message : String(err);
}
