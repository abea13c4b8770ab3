/**
 * Idempotency keys (header `Idempotency-Key`): scoped per account, kept 24 hours. A replay with the
 * same body returns the original response; the same key with a different body is a conflict.
 * Pure helpers: the store keeps the records.
 */
import { createHash } from 'node:crypto';
import { ValidationError } from '../errors';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Printable ASCII, 1-255 characters. */
export function validateIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new ValidationError('Idempotency-Key must be 1-255 printable ASCII characters without spaces.', {
      details: { fields: [{ field: 'Idempotency-Key', message: 'invalid header value' }] },
    });
  }
  return key;
}

/** Deeper requests are refused rather than fingerprinted (a send request is a few levels deep). */
export const MAX_FINGERPRINT_DEPTH = 32;

/** JSON with object keys sorted, so the same body hashes the same whatever the key order. Depth-bounded. */
function canonical(value: unknown, depth = 0): string {
  if (depth > MAX_FINGERPRINT_DEPTH) {
    throw new ValidationError(`The request body is nested more than ${MAX_FINGERPRINT_DEPTH} levels deep.`, {
      details: { fields: [{ field: '(body)', message: `nested more than ${MAX_FINGERPRINT_DEPTH} levels` }] },
    });
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key], depth + 1)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Fingerprint of a request: the endpoint and its body. */
export function requestFingerprint(endpoint: string, body: unknown): string {
  return createHash('sha256')
    .update(`${endpoint}\n${canonical(body)}`)
    .digest('hex');
}

export interface IdempotentResponse {
  status: number;
  body: unknown;
}

export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** The request's Idempotency (header validated, body fingerprinted), or undefined without the header. */
export function idempotencyOf(header: string | undefined, endpoint: string, body: unknown): Idempotency | undefined {
  const key = validateIdempotencyKey(header);
  return key === undefined ? undefined : { key, fingerprint: requestFingerprint(endpoint, body) };
}
