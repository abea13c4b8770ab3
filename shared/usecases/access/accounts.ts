/** Operator use cases on accounts (the admin CLI; the dashboard later). */
import type { Account } from '../../domain/accounts/account';
import { NotFoundError } from '../../domain/errors';
import type { PlanName } from '../../domain/accounts/plans';
import { generateApiKeySecret, hashSecret, secretHint } from '../../domain/api-keys/secret';
import type { ApiKey } from '../../domain/api-keys/api-key';
import { newId } from '../../domain/ids';
import { normaliseEmail } from '../../domain/mail/address';
import type { Clock } from '../../ports/clock';
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
export async function createAccount(
  deps: AccountDeps,
  input: CreateAccountInput,
): Promise<{ account: Account; apiKey: ApiKey; secret: string }> {
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

/**
 * An operator pauses an account (the admin CLI): every send of it is refused with 403 account_paused until
 * it is resumed. Returns the account as it is now (already paused, by the brake or by hand: unchanged).
 */
export async function pauseAccountAsOperator(
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
  accountId: string,
  reason: string,
): Promise<Account> {
  const paused = await deps.accounts.pauseManually(accountId, reason, deps.clock.now().toISOString());
  return paused ?? (await existing(deps, accountId));
}

/**
 * An operator resumes an account, also one the reputation brake paused (docs/deliverability.md, "Reputation
 * guard"). Returns the account as it is now (already active: unchanged).
 */
export async function resumeAccountAsOperator(deps: Pick<AccountDeps, 'accounts' | 'clock'>, accountId: string): Promise<Account> {
  const resumed = await deps.accounts.resume(accountId, deps.clock.now().toISOString());
  return resumed ?? (await existing(deps, accountId));
}

async function existing(deps: Pick<AccountDeps, 'accounts'>, accountId: string): Promise<Account> {
  const account = await deps.accounts.get(accountId);
  if (!account) throw new NotFoundError('Account', accountId);
  return account;
}
