/** `user create` (../admin.ts): a dashboard user of an account, with the access and team repositories only. */
import { generatePassword } from '#shared/domain/dashboard/password-policy';
import { buildAccess } from '#shared/services/access';
import { buildTeam } from '#shared/services/team';
import { createDashboardUser } from '#shared/usecases/dashboard/users';
import type { Command } from './context';

export const createUserCommand: Command = async ({ platform, values, password, audited }) => {
  const chosen = password ?? generatePassword();
  const { accounts } = buildAccess(platform);
  const { dashboardUsers, passwords } = buildTeam(platform);
  const user = await createDashboardUser(
    { accounts, dashboardUsers, passwords, clock: platform.clock },
    { accountId: values.account!, email: values.email!, password: chosen },
  );
  // A generated password is printed once, here; it is stored only as its scrypt hash.
  return audited(
    user.account_id,
    { user: user.id },
    {
      user_id: user.id,
      account_id: user.account_id,
      email: user.email,
      role: user.role,
      ...(password === undefined ? { password: chosen } : {}),
    },
  );
};
