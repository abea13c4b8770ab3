/**
 * Dashboard roles and what each may do (docs/dashboard.md, "Teams and roles"): the single table the
 * session doors, the pages and the team use cases ask. Pure: no I/O.
 *
 *   owner      everything, including making, demoting and removing owners
 *   admin      everything but owners: members (invite, change, remove non-owners), billing and the account's settings
 *   developer  every page and change of the account's mail (keys, domains, webhooks, ...), no members, no billing,
 *              not the account's settings (retention, content storage: the settings page)
 *   viewer     read-only: every page, no change at all
 *
 * The last owner of an account is never removed or demoted: the store enforces it (an owner counter
 * changed in the same DynamoDB transaction, shared/adapters/store/dashboard-users.ts), not this table.
 */
import type { Scope } from '../api-keys/scopes';
import { ForbiddenError } from '../errors';

export const DASHBOARD_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** What a request may ask for, coarsest first. */
export const DASHBOARD_ACTIONS = ['view', 'change', 'account_settings', 'billing', 'manage_members', 'manage_owners'] as const;
export type DashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const GRANTS: Record<DashboardRole, readonly DashboardAction[]> = {
  owner: DASHBOARD_ACTIONS,
  admin: ['view', 'change', 'account_settings', 'billing', 'manage_members'],
  developer: ['view', 'change'],
  viewer: ['view'],
};

/**
 * The scopes a member's session acts with (shared/usecases/dashboard/sessions.ts), so what a member may
 * put on a key or credential it makes (shared/domain/api-keys/reach.ts): owners and admins everything; a
 * developer the mail setup (`mail:admin`: never a key that reaches the account's settings, audit log,
 * exports or erasures); a viewer reading. The role checks above still apply to the session itself.
 */
export const ROLE_SCOPES: Record<DashboardRole, readonly Scope[]> = {
  owner: ['full'],
  admin: ['full'],
  developer: ['mail:admin'],
  viewer: ['account:read'],
};

/** What each role is for, in a sentence (the members page, the docs). */
export const ROLE_DESCRIPTIONS: Record<DashboardRole, string> = {
  owner: 'everything, including owners',
  admin: 'everything but owners: members and billing too',
  developer: 'every page and change of the mail setup; no members or billing',
  viewer: 'read-only: sees every page, changes nothing',
};

export function can(role: DashboardRole, action: DashboardAction): boolean {
  return GRANTS[role].includes(action);
}

const REFUSALS: Record<DashboardAction, string> = {
  view: 'cannot see this account',
  change: 'is read-only: it cannot change anything in this account',
  account_settings: "cannot change the account's settings, retention and content storage (owners and admins can)",
  billing: "cannot change the account's plan or billing settings (owners and admins can)",
  manage_members: "cannot manage the account's members (owners and admins can)",
  manage_owners: 'cannot make, change or remove owners (only owners can)',
};

/** The 403 for `role` asking for `action`: says which role is needed. */
export function roleRefusal(role: DashboardRole, action: DashboardAction): ForbiddenError {
  return new ForbiddenError(`Your dashboard role (${role}) ${REFUSALS[action]}.`, 'forbidden', {
    details: { role, action },
    hint: 'Ask an owner or admin of the account for another role (the Members page).',
  });
}

/** 403 unless `role` may `action`. */
export function assertCan(role: DashboardRole, action: DashboardAction): void {
  if (!can(role, action)) throw roleRefusal(role, action);
}

/**
 * What a member change needs, and the 403 when `actor` may not make it: inviting someone with `role`
 * (`target` absent), changing `target`'s role to `role`, or removing `target` (`role` absent). Members need
 * manage_members; anything that makes, changes or removes an owner needs manage_owners.
 */
export function assertMayChangeMember(actor: DashboardRole, change: { target?: DashboardRole; role?: DashboardRole }): void {
  assertCan(actor, 'manage_members');
  if (change.target === 'owner' || change.role === 'owner') assertCan(actor, 'manage_owners');
}
