import { hashSecret, looksLikeApiKey } from '../domain/api-keys/secret';
import { UnauthorizedError } from '../domain/errors';
import type { AccountRepository } from '../store/accounts';
import type { ApiKeyRepository } from '../store/api-keys';
import type { Principal } from './principal';

/** Resolves an `Authorization` header to a principal, or throws 401. Revoked keys fail at once (no cache). */
export async function authenticate(
  deps: { apiKeys: ApiKeyRepository; accounts: AccountRepository },
  authorization: string | undefined,
): Promise<Principal> {
  if (!authorization) {
    throw new UnauthorizedError('Missing API key. Pass it as "Authorization: Bearer svc_...".');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match || !looksLikeApiKey(match[1]!)) {
    throw new UnauthorizedError('Invalid API key. Pass it as "Authorization: Bearer svc_...".');
  }
  const key = await deps.apiKeys.findByHash(hashSecret(match[1]!));
  if (!key) throw new UnauthorizedError('Invalid API key.');
  const account = await deps.accounts.get(key.account_id);
  if (!account) throw new UnauthorizedError('Invalid API key.');
  return { account, key };
}
