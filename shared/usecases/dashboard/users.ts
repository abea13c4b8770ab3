/**
 * Dashboard users (docs/dashboard.md): creating one for an account (the admin CLI's `user create`; the
 * first user of an account is made this way). The password is checked against the policy
 * (shared/domain/dashboard/password-policy.ts) and stored only as its scrypt hash.
 */
import type { PasswordHasher } from '../../domain/dashboard/password-hash';
import { newUserSchema } from '../../domain/dashboard/schemas';
import type { DashboardUser } from '../../domain/dashboard/user';
import { NotFoundError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { parseWith } from '../../domain/request-validation';
import type { Clock } from '../../ports/clock';
import type { AccountRepository } from '../../adapters/store/accounts';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';

export interface DashboardUserDeps {
  accounts: Pick<AccountRepository, 'get'>;
  dashboardUsers: Pick<DashboardUserRepository, 'create'>;
  passwords: Pick<PasswordHasher, 'hash'>;
  clock: Clock;
}

export interface CreateDashboardUserInput {
  accountId: string;
  email: string;
  password: string;
}

/** 400 for a bad email or password, 404 for an unknown account, 409 when the email already has a user. */
export async function createDashboardUser(deps: DashboardUserDeps, input: CreateDashboardUserInput): Promise<DashboardUser> {
  const { email, password } = parseWith(newUserSchema, { email: input.email, password: input.password }, 'user');
  if (!(await deps.accounts.get(input.accountId))) throw new NotFoundError('Account', input.accountId);
  const now = deps.clock.now().toISOString();
  const user: DashboardUser = {
    id: newId('usr'),
    account_id: input.accountId,
    email,
    role: 'owner',
    password_hash: await deps.passwords.hash(password),
    created_at: now,
    updated_at: now,
  };
  await deps.dashboardUsers.create(user);
  return user;
}
