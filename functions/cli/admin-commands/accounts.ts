/** `account create|update|pause|resume` and `tenant resume` (../admin.ts): the access and tenant repositories only. */
import { accountPauseView } from '#shared/domain/accounts/account';
import { isPlanName, PLAN_NAMES, type PlanName } from '#shared/domain/accounts/plans';
import { toPublicApiKey } from '#shared/domain/api-keys/api-key';
import { isEmailAddress } from '#shared/domain/mail/address';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { createAccount, pauseAccountAsOperator, resumeAccountAsOperator, updateAccount } from '#shared/usecases/access/accounts';
import { resumeTenantAsOperator } from '#shared/usecases/tenants/tenants';
import { UsageError, type Command, type CommandContext } from './context';

function plan(value: string | undefined): PlanName | undefined {
  if (value === undefined) return undefined;
  if (!isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

function flag(on: boolean | undefined, off: boolean | undefined, name: string): boolean | undefined {
  if (on && off) throw new UsageError(`--${name} and --no-${name} contradict each other`);
  return on ? true : off ? false : undefined;
}

const accountsOf = ({ platform }: CommandContext) => ({ ...buildAccess(platform), clock: platform.clock });

export const createAccountCommand: Command = async (context) => {
  const { values, audited } = context;
  if (!values.email || !isEmailAddress(values.email)) throw new UsageError('account create needs --email <address>');
  if (values['no-payment-method'] || values['no-tenants']) throw new UsageError('--no-* options are for account update');
  const { account, apiKey, secret } = await createAccount(accountsOf(context), {
    email: values.email,
    plan: plan(values.plan) ?? 'free',
    paymentMethod: values['payment-method'] ?? false,
    tenants: values.tenants ?? false,
  });
  // The account's first key, named as POST /api-keys answers a new key: the key, and its secret (shown once).
  return audited(
    account.id,
    { account: account.id, api_key: apiKey.id },
    { account_id: account.id, api_key: toPublicApiKey(apiKey), secret },
  );
};

export const updateAccountCommand: Command = async (context) => {
  const { values, audited } = context;
  if (!values.id) throw new UsageError('account update needs --id <account_id>');
  const account = await updateAccount(accountsOf(context), values.id, {
    plan: plan(values.plan),
    payment_method: flag(values['payment-method'], values['no-payment-method'], 'payment-method'),
    tenants_enabled: flag(values.tenants, values['no-tenants'], 'tenants'),
  });
  return audited(
    account.id,
    { account: account.id },
    {
      account_id: account.id,
      email: account.email,
      plan: account.plan,
      payment_method: account.payment_method,
      tenants_enabled: account.tenants_enabled,
    },
  );
};

export function pauseCommand(action: 'pause' | 'resume'): Command {
  return async (context) => {
    const { values, audited } = context;
    if (!values.id) throw new UsageError(`account ${action} needs --id <account_id>`);
    const reason = values.reason?.trim() || 'Paused by the operator.';
    const deps = accountsOf(context);
    const changed =
      action === 'pause' ? await pauseAccountAsOperator(deps, values.id, reason) : await resumeAccountAsOperator(deps, values.id);
    return audited(changed.id, { account: changed.id }, { account_id: changed.id, ...accountPauseView(changed) });
  };
}

export const resumeTenantCommand: Command = async ({ platform, values, audited }) => {
  if (!values.account || !values.tenant) throw new UsageError('tenant resume needs --account <account_id> --tenant <external_id or id>');
  const tenant = await resumeTenantAsOperator({ ...buildTenants(platform), clock: platform.clock }, values.account, values.tenant);
  return audited(values.account, { tenant: tenant.id }, { tenant_id: tenant.id, external_id: tenant.external_id, status: tenant.status });
};
