/**
 * Mailgun's authentication: HTTP Basic with the user `api` and the key as the password; here the key is
 * one of our API keys (svc_...). Answers the key's hash for the send core, which reads the key itself
 * (revoked keys refused there). A missing or malformed header, another user, or a string not shaped like
 * our key is a 401 (Mailgun's plain-text `Forbidden`: ./answers.ts). Pure.
 */
import { UnauthorizedError } from '#shared/domain/errors';
import { apiKeySecretHash } from '#shared/usecases/access/authenticate';

export const MAILGUN_USER = 'api';

/** The key of an `Authorization: Basic base64(api:<key>)` header. */
export function keyOfBasicAuth(header: string | undefined): string {
  const match = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) throw new UnauthorizedError('Authenticate with HTTP Basic: user "api", password your API key (svc_...).');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== MAILGUN_USER)
    throw new UnauthorizedError('The Basic auth user is always "api"; the password is your API key.');
  return decoded.slice(colon + 1);
}

/** The hash the send core reads the key by (401 when the header or the key is malformed). */
export function apiKeyHashOfBasicAuth(header: string | undefined): string {
  return apiKeySecretHash(keyOfBasicAuth(header));
}
