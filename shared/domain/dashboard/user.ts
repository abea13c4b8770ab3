/**
 * A dashboard user (docs/dashboard.md): a person who signs in to the web dashboard with an email address
 * and a password. Belongs to one account, with the role `owner` (the only role for now: the account's
 * full access). The email is unique per deployment (the store's key), normalised (trimmed, lower-cased).
 */
export type DashboardRole = 'owner';

export interface DashboardUser {
  id: string;
  account_id: string;
  email: string;
  role: DashboardRole;
  /** scrypt, PHC string with its parameters (./password-hash.ts). Never leaves the use cases. */
  password_hash: string;
  created_at: string;
  updated_at: string;
}

/** What the dashboard's answers show of a user: everything but the hash. */
export function toPublicUser(user: DashboardUser) {
  return { object: 'dashboard_user' as const, id: user.id, account_id: user.account_id, email: user.email, role: user.role, created_at: user.created_at };
}
