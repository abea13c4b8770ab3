/**
 * The account's team (docs/dashboard.md, "Teams and roles"): listing its members and pending
 * invitations, changing a member's role and removing a member. Who may do what is the role table
 * (shared/domain/dashboard/roles.ts): members need an owner or admin, owners need an owner. The last
 * owner is kept by the store, in the same transaction as the change (shared/adapters/store/dashboard-users.ts):
 * never by what this code read before.
 */
import { assertMayChangeMember, type DashboardRole } from '../../domain/dashboard/roles';
import { changeRoleRequestSchema } from '../../domain/dashboard/schemas';
import type { Invitation } from '../../domain/dashboard/invitation';
import type { DashboardUser } from '../../domain/dashboard/user';
import { NotFoundError } from '../../domain/errors';
import { parseWith } from '../../domain/request-validation';
import type { Clock } from '../../ports/clock';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';
import type { InvitationRepository } from '../../adapters/store/invitations';

export interface TeamDeps {
  dashboardUsers: Pick<DashboardUserRepository, 'listByAccount' | 'getById' | 'changeRole' | 'remove'>;
  invitations: Pick<InvitationRepository, 'listByAccount'>;
  clock: Clock;
}

/** Who acts: the signed-in user (its role as the session read it). */
export type Actor = Pick<DashboardUser, 'id' | 'account_id' | 'role' | 'email'>;

const byCreation = <T extends { created_at: string }>(a: T, b: T) => a.created_at.localeCompare(b.created_at);

/** The account's members (oldest first) and its pending invitations (expired ones left out). Every role may see them. */
export async function listTeam(deps: TeamDeps, actor: Actor): Promise<{ members: DashboardUser[]; invitations: Invitation[] }> {
  const [members, invitations] = await Promise.all([
    deps.dashboardUsers.listByAccount(actor.account_id),
    deps.invitations.listByAccount(actor.account_id),
  ]);
  const now = deps.clock.now().toISOString();
  return {
    members: members.sort(byCreation),
    invitations: invitations.filter((invitation) => invitation.expires_at > now).sort(byCreation),
  };
}

async function memberOf(deps: TeamDeps, actor: Actor, userId: string): Promise<DashboardUser> {
  const member = /^usr_[0-9A-Za-z]{1,40}$/.test(userId) ? await deps.dashboardUsers.getById(actor.account_id, userId) : null;
  if (!member) throw new NotFoundError('Member', userId);
  return member;
}

/** Sets the member's role: 403 when the actor may not, 404 for no such member, 409 for the last owner. */
export async function changeMemberRole(deps: TeamDeps, actor: Actor, userId: string, body: unknown): Promise<DashboardUser> {
  const { role } = parseWith(changeRoleRequestSchema, body, 'role change');
  const member = await memberOf(deps, actor, userId);
  assertMayChangeMember(actor.role, { target: member.role, role });
  if (member.role === role) return member;
  return deps.dashboardUsers.changeRole(member, role as DashboardRole, deps.clock.now().toISOString());
}

/** Removes the member (its sessions end at their next request): 403, 404 and 409 as changeMemberRole. */
export async function removeMember(deps: TeamDeps, actor: Actor, userId: string): Promise<DashboardUser> {
  const member = await memberOf(deps, actor, userId);
  assertMayChangeMember(actor.role, { target: member.role });
  await deps.dashboardUsers.remove(member);
  return member;
}
