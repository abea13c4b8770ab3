/** The process's cache of which account a key belongs to (docs/reference/caches.md). */
import type { Account } from '../../domain/accounts/account';
import type { ApiKeyLookup } from '../../adapters/store/api-keys';
import { BoundedMap } from '../../lib/bounded-map';
import { principalOf, type Principal, type SecretKind } from './principal';

/**
 * key hash -> account id (10,000 keys, oldest forgotten first): which account an API key or SMTP
 * credential belongs to. No staleness bound is needed: a key never changes account, and the key item and
 * the account are still read on every request, so a revoked key or a deleted account is refused at once.
 * One per process, owned by the send-context loader (../send/send-context-loader.ts) and shared with
 * authentication by the composition root; a test builds its own.
 */
export class KeyAccounts {
  private readonly accounts = new BoundedMap<string, string>(10_000);

  /** The account of a key this process has resolved before; undefined when it has not. */
  of(secretHash: string): string | undefined {
    return this.accounts.get(secretHash);
  }

  /** principalOf, remembering which account the key belongs to (for the next request's single round trip). */
  principalOf(key: ApiKeyLookup | null, secretHash: string, account: Account | null, kind: SecretKind = 'api_key'): Principal {
    const principal = principalOf(key, account, kind);
    this.accounts.set(secretHash, principal.account.id);
    return principal;
  }
}
