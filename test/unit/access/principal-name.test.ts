/**
 * An API key's name travels from its lookup item to the principal (shared/usecases/access/principal.ts), where
 * the audit middleware takes it without reading the key again; a lookup item of an older key has none.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { ApiKeyLookup } from '#shared/adapters/store/api-keys';
import { principalOf } from '#shared/usecases/access/principal';

const account = { id: 'acc_01HZZZZZZZZZZZZZZZZZZZZZZZ' } as Account;
const lookup: ApiKeyLookup = {
  kind: 'api_key',
  key_id: 'key_01HAAAAAAAAAAAAAAAAAAAAAAA',
  account_id: account.id,
  scopes: ['full'],
  tenant: null,
  allowed_domains: null,
};

test("the principal carries the key's name from its lookup item, and none when the item has none", () => {
  expect(principalOf({ ...lookup, name: 'deploy key' }, account).credential.name).toBe('deploy key');
  expect('name' in principalOf(lookup, account).credential).toBe(false);
});
