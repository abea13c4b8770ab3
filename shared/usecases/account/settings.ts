/**
 * The account's own settings (GET /account, PATCH /account; docs/retention.md, docs/redaction.md): its plan,
 * its retention by kind with the bounds its plan allows, whether sent content is kept (`store_content`), and
 * which bounce categories suppress the address (`suppress_bounce_categories`, docs/deliverability.md). Reading takes `account:read` or `full`, changing `full` (the
 * route checks the scope); a key limited to a tenant may do neither (account-wide settings).
 */
import { accountPauseView, type Account, type AccountPauseFigures } from '../../domain/accounts/account';
import { ValidationError } from '../../domain/errors';
import {
  effectiveRetention,
  MIN_RETENTION_DAYS,
  PLAN_RETENTION,
  RETENTION_CLASSES_DAYS,
  RETENTION_KINDS,
  retentionProblem,
  type Retention,
  type StoredRetention,
} from '../../domain/accounts/retention';
import { BOUNCE_CATEGORIES, DEFAULT_SUPPRESS_BOUNCE_CATEGORIES, type BounceCategory } from '../../domain/bounces/bounce-category';
import type { AccountRepository } from '../../adapters/store/accounts';
import type { Clock } from '../../ports/clock';
import type { Principal } from '../access/principal';
import { requireAccountKey } from '../access/tenant-scope';

/** The answer of GET and PATCH /account. */
export interface AccountSettings {
  object: 'account';
  id: string;
  email: string;
  plan: Account['plan'];
  tenants_enabled: boolean;
  /** Paused: every send is refused (403 account_paused; docs/deliverability.md, "Reputation guard"). */
  status: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: string | null;
  pause_source: 'manual' | 'automated' | null;
  pause_figures: AccountPauseFigures | null;
  retention: Retention;
  /** false: sent content is dropped once sent (docs/redaction.md). */
  store_content: boolean;
  /** The bounce categories that suppress the address (docs/deliverability.md, "Bounce categories"). */
  suppress_bounce_categories: BounceCategory[];
  retention_bounds: { min_days: number; max_days: number; allowed_days: number[]; default_days: number };
  created_at: string;
  updated_at: string;
}

export function toAccountSettings(account: Account): AccountSettings {
  const plan = PLAN_RETENTION[account.plan];
  return {
    object: 'account',
    id: account.id,
    email: account.email,
    plan: account.plan,
    tenants_enabled: account.tenants_enabled,
    ...accountPauseView(account),
    retention: effectiveRetention(account.plan, account.retention),
    store_content: account.store_content !== false,
    suppress_bounce_categories: [...(account.suppress_bounce_categories ?? DEFAULT_SUPPRESS_BOUNCE_CATEGORIES)],
    retention_bounds: {
      min_days: MIN_RETENTION_DAYS,
      max_days: plan.maxDays,
      allowed_days: RETENTION_CLASSES_DAYS.filter((days) => days <= plan.maxDays),
      default_days: plan.defaultDays,
    },
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

export function getAccountSettings(principal: Principal): AccountSettings {
  requireAccountKey(principal, 'read the account settings');
  return toAccountSettings(principal.account);
}

/** What PATCH /account takes (functions/api/account/account-schemas.ts validates its shape). */
export interface AccountSettingsChange {
  retention?: Partial<Retention>;
  store_content?: boolean;
  suppress_bounce_categories?: BounceCategory[];
}

/** Checks every requested value against the plan: 400 naming the first refused field. */
export function checkRetentionChange(plan: Account['plan'], change: Partial<Retention>): void {
  for (const kind of RETENTION_KINDS) {
    const days = change[kind];
    if (days === undefined) continue;
    const problem = retentionProblem(plan, days);
    if (problem)
      throw new ValidationError(`Invalid request body: retention.${kind} ${problem}.`, {
        details: { fields: [{ field: `retention.${kind}`, message: `retention.${kind} ${problem}` }] },
      });
  }
}

export async function updateAccountSettings(
  deps: { accounts: AccountRepository; clock: Clock },
  principal: Principal,
  change: AccountSettingsChange,
): Promise<AccountSettings> {
  requireAccountKey(principal, 'change the account settings');
  const account = principal.account;
  if (!change.retention && change.store_content === undefined && change.suppress_bounce_categories === undefined)
    return toAccountSettings(account);
  let retention: StoredRetention | undefined;
  if (change.retention) {
    checkRetentionChange(account.plan, change.retention);
    retention = { ...account.retention };
    for (const kind of RETENTION_KINDS) if (change.retention[kind] !== undefined) retention[kind] = change.retention[kind];
  }
  const updated = await deps.accounts.update(
    account.id,
    {
      ...(retention ? { retention } : {}),
      ...(change.store_content === undefined ? {} : { store_content: change.store_content }),
      // Kept in the table's order, each once.
      ...(change.suppress_bounce_categories === undefined
        ? {}
        : { suppress_bounce_categories: BOUNCE_CATEGORIES.filter((category) => change.suppress_bounce_categories!.includes(category)) }),
    },
    deps.clock.now().toISOString(),
  );
  return toAccountSettings(updated);
}
