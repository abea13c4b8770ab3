/**
 * SMTP relay passwords: `svcsmtp_` + 32 random bytes (base64url), a secret of their own kind (never an
 * API key, which starts `svc_`: neither door accepts the other's). Only the SHA-256 hash is stored, under
 * the same lookup key shape as API keys (shared/adapters/store/keys.ts `apiKeyHash`) with `kind: 'smtp'`, so the
 * send core's one BatchGetItem re-checks an SMTP credential exactly as it checks a key.
 */
import { randomBytes } from 'node:crypto';

export const SMTP_PASSWORD_PREFIX = 'svcsmtp_';

/**
 * The fixed literal username every SMTP client uses (like SendGrid's `apikey`); the password says who
 * sends. Shown in each credential as `username`.
 */
export const SMTP_USERNAME = 'mailservice';

export function generateSmtpPassword(): string {
  return SMTP_PASSWORD_PREFIX + randomBytes(32).toString('base64url');
}

export function looksLikeSmtpPassword(value: string): boolean {
  return /^svcsmtp_[A-Za-z0-9_-]{20,200}$/.test(value);
}
