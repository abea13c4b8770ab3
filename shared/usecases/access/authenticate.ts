/**
 * Checking a secret (an API key today, an SMTP password tomorrow) and resolving who it belongs to. Header
 * parsing lives with the door (shared/doors/http/middleware/authenticate.ts); this is what every door shares.
 *
 * Revocation is immediate: the key's lookup item is read on every request, strongly consistent. What is
 * cached is only what can never change: which account a key (by its hash) belongs to (./key-accounts.ts), so the
 * send path can read the key, the account and the send's other items in ONE round trip (shared/usecases/send).
 */
import { hashSecret, looksLikeApiKey } from '../../domain/api-keys/secret';
import { looksLikeSmtpPassword, SMTP_USERNAME } from '../../domain/smtp-credentials/secret';
import { UnauthorizedError } from '../../domain/errors';
import type { AccountRepository } from '../../adapters/store/accounts';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';
import type { KeyAccounts } from './key-accounts';
import { invalidSecret, type Principal, type SecretKind } from './principal';

export interface AuthenticateDeps {
  apiKeys: Pick<ApiKeyRepository, 'findByHash' | 'findWithAccount'>;
  accounts: Pick<AccountRepository, 'get'>;
  /** The process's key -> account cache (shared/services/access.ts; the send-context loader shares it). */
  keyAccounts: Pick<KeyAccounts, 'of' | 'principalOf'>;
}

/** The hash a key is stored under; 401 without a read when the string is not shaped like one of our keys. */
export function apiKeySecretHash(secret: string): string {
  if (!looksLikeApiKey(secret)) throw new UnauthorizedError('Invalid API key. Pass it as "Authorization: Bearer svc_...".');
  return hashSecret(secret);
}

/**
 * Resolves a key's hash to its principal. One round trip (key and account together) once this process has
 * seen the key; two the first time (the key tells which account to read).
 */
export async function authenticateKeyHash(deps: AuthenticateDeps, secretHash: string, kind: SecretKind = 'api_key'): Promise<Principal> {
  const accountId = deps.keyAccounts.of(secretHash);
  if (accountId) {
    const { key, account } = await deps.apiKeys.findWithAccount(secretHash, accountId);
    return deps.keyAccounts.principalOf(key, secretHash, account, kind);
  }
  const key = await deps.apiKeys.findByHash(secretHash);
  if (!key) throw invalidSecret(kind);
  return deps.keyAccounts.principalOf(key, secretHash, await deps.accounts.get(key.account_id), kind);
}

/** The hash an SMTP password is stored under; 401 without a read when it is not shaped like one of ours. */
export function smtpPasswordHash(password: string): string {
  if (!looksLikeSmtpPassword(password))
    throw new UnauthorizedError(
      `Invalid SMTP credential: the password is an SMTP credential (svcsmtp_...) created with POST /smtp-credentials.`,
    );
  return hashSecret(password);
}

/**
 * The SMTP relay's AUTH (PLAIN or LOGIN): the fixed username and an SMTP credential's password. 401 for a
 * wrong username, a malformed password, or a credential revoked or of a deleted account.
 */
export async function authenticateSmtp(deps: AuthenticateDeps, username: string, password: string): Promise<Principal> {
  if (username !== SMTP_USERNAME)
    throw new UnauthorizedError(`Invalid SMTP username: it is always "${SMTP_USERNAME}"; the password is an SMTP credential.`);
  return authenticateKeyHash(deps, smtpPasswordHash(password), 'smtp');
}
