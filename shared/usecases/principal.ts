import type { Account } from '../domain/accounts/account';
import type { ApiKeyLookup } from '../store/api-keys';

/** Who is calling: the authenticated key and its account. */
export interface Principal {
  account: Account;
  key: ApiKeyLookup;
}
