/**
 * A small client of the service's own HTTP API (docs/api.md), for the programs that drive it from outside:
 * the CLI (clients/cli) and the MCP server (clients/mcp). It speaks the public API only (a base URL and an
 * API key), so the key's scopes, limits and rules apply exactly as to any other caller.
 *
 * Errors come back as ApiError with the spec's envelope ({error: {message, code, details, hint}}); a
 * 429 carries Retry-After. No retries here: the callers decide (the CLI's imports follow continuation).
 */

export interface ApiClientOptions {
  /** The API's base URL, e.g. http://127.0.0.1:3000 (a trailing slash is dropped). */
  baseUrl: string;
  /** An API key secret (svc_...). */
  apiKey: string;
  /** Sent as User-Agent (default: mailservice-client). */
  userAgent?: string;
  /** For tests: a fetch of their own. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An answer outside 2xx, with the spec's error envelope when the API gave one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly body: unknown,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClient {
  readonly baseUrl: string;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, query?: RequestOptions['query']): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, headers?: Record<string, string>): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown): Promise<T>;
  delete<T = unknown>(path: string): Promise<T>;
}

function errorOf(status: number, body: unknown, retryAfter: string | null): ApiError {
  const envelope =
    typeof body === 'object' && body !== null ? (body as { error?: { message?: unknown; code?: unknown } }).error : undefined;
  const message =
    typeof envelope?.message === 'string' ? envelope.message : typeof body === 'string' && body !== '' ? body : `HTTP ${status}`;
  const code = typeof envelope?.code === 'string' ? envelope.code : undefined;
  const seconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  return new ApiError(status, message, code, body, seconds);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const request = async <T>(method: string, path: string, { query, body, headers }: RequestOptions = {}): Promise<T> => {
    const url = new URL(baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const response = await doFetch(url, {
      method,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'user-agent': options.userAgent ?? 'mailservice-client',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let parsed: unknown = text;
    if (text !== '' && (response.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (!response.ok) throw errorOf(response.status, parsed, response.headers.get('retry-after'));
    return parsed as T;
  };
  return {
    baseUrl,
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body, headers) => request('POST', path, { body, headers }),
    patch: (path, body) => request('PATCH', path, { body }),
    delete: (path) => request('DELETE', path),
  };
}
