/**
 * Dashboard session secrets (docs/dashboard.md): the session token is 32 random bytes (base64url, 43
 * characters) carried only by the `svc_session` cookie; the table keeps only its SHA-256 (as for API
 * keys: 256 bits of entropy make a slow hash unnecessary), so a copy of the table signs nobody in. The
 * CSRF token is another 32 random bytes stored with the session and handed to the page (sign-in's answer,
 * GET /dashboard/session); comparisons are constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'svc_session';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FORM_FIELD = 'csrf_token';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True for something shaped like a token of ours (anything else is not looked up). */
export function isTokenShaped(value: string | undefined | null): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time equality of a presented CSRF token and the session's (false when absent). */
export function csrfTokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}
