/** Operator use cases on accounts (the admin CLI; the dashboard later). */
import type { Account } from '../../domain/accounts/account';
import type { PlanName } from '../../domain/accounts/plans';
import { generateApiKeySecret, hashSecret, secretHint } from '../../domain/api-keys/secret';
import type { ApiKey } from '../../domain/api-keys/api-key';
import { newId } from '../../domain/ids';
import { normaliseEmail } from '../../domain/mail/address';
import type { Clock } from '../../ports';
import type { AccountChanges, AccountRepository } from '../../adapters/store/accounts';
import type { ApiKeyRepository } from '../../adapters/store/api-keys';

export interface AccountDeps {
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  clock: Clock;
}

export interface CreateAccountInput {
  email: string;
  plan: PlanName;
  paymentMethod: boolean;
  tenants: boolean;
}

/** Creates an account and its first full-access key in one transaction; the secret is returned once. */
export async function createAccount(deps: AccountDeps, input: CreateAccountInput): Promise<{ account: Account; apiKey: ApiKey; secret: string }> {
  const now = deps.clock.now().toISOString();
  const account: Account = {
    id: newId('acc'),
    email: normaliseEmail(input.email),
    plan: input.plan,
    payment_method: input.paymentMethod,
    tenants_enabled: input.tenants,
    created_at: now,
    updated_at: now,
  };
  const secret = generateApiKeySecret();
  const apiKey: ApiKey = {
    id: newId('key'),
    account_id: account.id,
    name: 'Default full-access key',
    scopes: ['full'],
    tenant: null,
    allowed_domains: null,
    hint: secretHint(secret),
    created_at: now,
  };
  await deps.accounts.create(account, deps.apiKeys.itemsFor(apiKey, hashSecret(secret)));
  return { account, apiKey, secret };
}

export function updateAccount(deps: AccountDeps, accountId: string, changes: AccountChanges): Promise<Account> {
  return deps.accounts.update(accountId, changes, deps.clock.now().toISOString());
}
