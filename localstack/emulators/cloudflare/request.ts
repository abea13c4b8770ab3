/**
 * What the fake reads of a request before any call: the API token (`Authorization: Bearer <token>`; a
 * missing or malformed header is 400 code 6003 with 6111 in its error chain, an unknown token 403 code
 * 10000 "Authentication error", as Cloudflare answers) and the JSON body (an object, or nothing).
 */
import { CloudflareFault } from './errors';

export function authenticate(authorization: string | undefined, tokens: readonly string[]): void {
  const token = /^Bearer ([A-Za-z0-9_-]{20,})$/.exec(authorization ?? '')?.[1];
  if (!token)
    throw new CloudflareFault(400, 6003, 'Invalid request headers', [{ code: 6111, message: 'Invalid format for Authorization header' }]);
  if (!tokens.includes(token)) throw new CloudflareFault(403, 10000, 'Authentication error');
}

/** The body's JSON object ({} when there is no body); 400 code 9207 when it is anything else. */
export function readJsonBody(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    throw new Error('not an object');
  } catch {
    throw new CloudflareFault(400, 9207, 'Request body is invalid.');
  }
}
