/**
 * Who sends, as a door hands it to the send core, and as the send's read sees it. A door either resolved
 * its caller already (batch, resend, the dashboard, an automation step: a Principal) or hands over a
 * secret's hash to resolve (again) in the send's first read: an API key (POST /emails) or an SMTP
 * credential (the relay, for every message, so a revoked credential stops an open session's next message).
 *
 * `callerInRead` is the one place that tells the two apart: what follows only asks the CallerInRead which
 * account to read under, which key to read with it, and for the principal once the read returned.
 */
import type { SendContext } from '../../adapters/store/send-context';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';
import type { KeyAccounts } from '../access/key-accounts';
import { invalidSecret, type SecretKind } from '../access/principal';
import type { Principal } from '../access/principal';
import type { TenantGuesses } from './tenant-read';

/** Already resolved, or a secret's hash: an API key (`kind` absent) or an SMTP credential. */
export type SendCaller = { principal: Principal } | { apiKeyHash: string; kind?: SecretKind };

/** A caller whose account is known, as the send's read sees it. */
export interface CallerInRead {
  accountId: string;
  /** The key to read with the send's items (undefined: the caller is resolved already). */
  apiKeyHash?: string;
  /** The tenant the key is limited to, as known when the read is planned: an id, null (account-wide), undefined (not known yet). */
  keyTenantId(): string | null | undefined;
  /**
   * The principal, from the key and account the read returned: 401 for a revoked key or credential, a
   * deleted account, or a secret of the other door's kind. The key's account is remembered.
   */
  principal(read: Pick<SendContext, 'key' | 'account'>): Principal;
}

/** What resolving a caller uses: the key lookup for a key not seen yet, and the process's caches. */
export interface CallerDeps {
  apiKeys: Pick<ApiKeyRepository, 'findByHash'>;
  keyAccounts: Pick<KeyAccounts, 'of' | 'principalOf'>;
  guesses: Pick<TenantGuesses, 'keyTenantOf' | 'rememberKeyTenant'>;
}

/** A key to check in the send's read, under an account already known. */
export function keyInRead(deps: CallerDeps, apiKeyHash: string, kind: SecretKind, accountId: string): CallerInRead {
  return {
    accountId,
    apiKeyHash,
    keyTenantId: () => deps.guesses.keyTenantOf(apiKeyHash),
    principal: (read) => deps.keyAccounts.principalOf(read.key, apiKeyHash, read.account, kind),
  };
}

/**
 * The caller as the send's read sees it. A resolved caller reads nothing more; a key's account is
 * remembered, or read first (one GetItem, the first request of a key in this process; 401 when there is
 * no such key), which also tells the key's tenant.
 */
export async function callerInRead(deps: CallerDeps, caller: SendCaller): Promise<CallerInRead> {
  if ('principal' in caller) {
    const { principal } = caller;
    return { accountId: principal.account.id, keyTenantId: () => principal.credential.tenant, principal: () => principal };
  }
  const kind = caller.kind ?? 'api_key';
  const remembered = deps.keyAccounts.of(caller.apiKeyHash);
  if (remembered) return keyInRead(deps, caller.apiKeyHash, kind, remembered);
  const key = await deps.apiKeys.findByHash(caller.apiKeyHash);
  if (!key) throw invalidSecret(kind);
  deps.guesses.rememberKeyTenant(caller.apiKeyHash, key.tenant);
  return keyInRead(deps, caller.apiKeyHash, kind, key.account_id);
}
