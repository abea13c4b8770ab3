/**
 * API key secrets: `svc_` + 32 random bytes (base64url). Only the SHA-256 hash is stored; a key is found
 * by its hash. With 256 bits of entropy a fast hash is enough (no offline guessing is feasible).
 */
import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'svc_';

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A short, non-secret hint shown in listings (`svc_AbCd…`), like other providers do. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, API_KEY_PREFIX.length + 4)}…`;
}

export function looksLikeApiKey(value: string): boolean {
  return /^svc_[A-Za-z0-9_-]{20,200}$/.test(value);
}
