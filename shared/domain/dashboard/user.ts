/**
 * A dashboard user (docs/dashboard.md): a person who signs in to the web dashboard with an email address
 * and a password. Belongs to one account, with a role (./roles.ts: owner, admin, developer, viewer).
 * The email is unique per deployment (the store's key), normalised (trimmed, lower-cased).
 */
import * as z from 'zod';
import { DASHBOARD_ROLES } from './roles';

export { DASHBOARD_ROLES, type DashboardRole } from './roles';

/** The schema of the stored user (the store decodes with it: shared/adapters/store/dashboard-users.ts), the single source of the type. */
export const dashboardUserSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  email: z.string(),
  role: z.enum(DASHBOARD_ROLES),
  /** scrypt, PHC string with its parameters (./password-hash.ts). Never leaves the use cases. */
  password_hash: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DashboardUser = z.output<typeof dashboardUserSchema>;

/** What the dashboard's answers show of a user: everything but the hash. */
export function toPublicUser(user: DashboardUser) {
  return {
    object: 'dashboard_user' as const,
    id: user.id,
    account_id: user.account_id,
    email: user.email,
    role: user.role,
    created_at: user.created_at,
  };
}
