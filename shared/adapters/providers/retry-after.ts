/**
 * How long a provider asks us to wait after a 429, in whole seconds, from whichever signal it sends:
 * a `Retry-After` header (seconds or an HTTP date), `X-RateLimit-Reset` (unix seconds: SendGrid,
 * Mailgun), or Mailgun's `{"retry-seconds": n}` body. Postmark sends none of them: 60 s then.
 * Always within 1 s .. 1 h so a strange header can neither spin the import nor park it for days.
 */

export const DEFAULT_RETRY_AFTER_SECONDS = 60;
export const MIN_RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 3600;

/** Below this an X-RateLimit-Reset value is read as "seconds from now" rather than a unix time. */
const SMALLEST_UNIX_TIME = 1_000_000_000;

export function retryAfterSeconds(headers: Headers, body: unknown, nowMs: number): number {
  const seconds = fromRetryAfter(headers.get('retry-after'), nowMs) ?? fromReset(headers.get('x-ratelimit-reset'), nowMs) ?? fromBody(body);
  return clamp(seconds ?? DEFAULT_RETRY_AFTER_SECONDS);
}

function fromRetryAfter(value: string | null, nowMs: number): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : (at - nowMs) / 1000;
}

function fromReset(value: string | null, nowMs: number): number | null {
  if (value === null) return null;
  const reset = Number(value.trim());
  if (!Number.isFinite(reset) || value.trim() === '') return null;
  return reset < SMALLEST_UNIX_TIME ? reset : reset - nowMs / 1000;
}

function fromBody(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)['retry-seconds'];
  const seconds = typeof value === 'string' ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null;
}

function clamp(seconds: number): number {
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil(seconds)));
}
