/**
 * Dashboard invitations (docs/dashboard.md, "Teams and roles"): an owner or admin invites an address to
 * the account with a role; the answer carries the link (its token, shown once: only its hash is stored)
 * for the inviter to hand over; the invitee opens it, sets a password and becomes a user of the account.
 * Single use and expiring: accepting deletes the invitation in the transaction that creates the user
 * (shared/adapters/store/invitations.ts).
 */
import type { PasswordHasher } from '../../domain/dashboard/password-hash';
import { assertMayChangeMember } from '../../domain/dashboard/roles';
import { acceptInvitationRequestSchema, inviteRequestSchema } from '../../domain/dashboard/schemas';
import {
  INVITATION_TTL_MS,
  invitationExpired,
  invitationLink,
  invitationTokenHash,
  newInvitationId,
  newInvitationToken,
  type Invitation,
} from '../../domain/dashboard/invitation';
import type { DashboardUser } from '../../domain/dashboard/user';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { parseWith } from '../../domain/request-validation';
import type { Clock } from '../../ports/clock';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';
import { INVITATION_NOT_VALID, type InvitationRepository } from '../../adapters/store/invitations';
import type { Actor } from './team';

export interface InvitationDeps {
  dashboardUsers: Pick<DashboardUserRepository, 'getByEmail'>;
  invitations: Pick<InvitationRepository, 'create' | 'getByTokenHash' | 'listByAccount' | 'delete' | 'accept'>;
  passwords: Pick<PasswordHasher, 'hash'>;
  clock: Clock;
}

export interface CreatedInvitation {
  invitation: Invitation;
  /** The link with the token: shown to the inviter once (never stored, never flashed). */
  link: string;
}

/**
 * Invites `body.email` with `body.role`: 400 for a bad body, 403 when the actor may not give that role,
 * 409 when the address already has a dashboard user. `origin` is the dashboard's (the link's base).
 */
export async function inviteMember(deps: InvitationDeps, actor: Actor, body: unknown, origin: string): Promise<CreatedInvitation> {
  const { email, role } = parseWith(inviteRequestSchema, body, 'invitation');
  assertMayChangeMember(actor.role, { role });
  const existing = await deps.dashboardUsers.getByEmail(email);
  if (existing) {
    throw new ConflictError(
      existing.account_id === actor.account_id
        ? `${email} is already a member of this account.`
        : `${email} already has a dashboard user (of another account): an address has one user in the whole deployment.`,
    );
  }
  const now = deps.clock.now();
  const token = newInvitationToken();
  const invitation: Invitation = {
    id: newInvitationId(now.getTime()),
    account_id: actor.account_id,
    email,
    role,
    invited_by: actor.id,
    invited_by_email: actor.email,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
  };
  await deps.invitations.create(invitation, invitationTokenHash(token));
  return { invitation, link: invitationLink(origin, token) };
}

/** Revokes a pending invitation: the same rights as giving its role; 404 when the account has none such. */
export async function revokeInvitation(deps: InvitationDeps, actor: Actor, id: string): Promise<void> {
  const invitation = (await deps.invitations.listByAccount(actor.account_id)).find((candidate) => candidate.id === id);
  if (!invitation) throw new NotFoundError('Invitation', id);
  assertMayChangeMember(actor.role, { role: invitation.role });
  await deps.invitations.delete(actor.account_id, id);
}

/** The pending invitation a link's token names (for the accept page), or 400 when it is not valid any more. */
export async function invitationOfToken(
  deps: Pick<InvitationDeps, 'invitations' | 'clock'>,
  token: string | undefined,
): Promise<Invitation> {
  const invitation = token && token.length <= 200 ? await deps.invitations.getByTokenHash(invitationTokenHash(token)) : null;
  if (!invitation || invitationExpired(invitation, deps.clock.now())) throw new ValidationError(INVITATION_NOT_VALID);
  return invitation;
}

/**
 * Accepts an invitation: the invitee's password (the policy: 12 characters at least) and the link's
 * token. Creates the user in the invitation's account with its role and uses the invitation up, in one
 * transaction. 400 for a bad body or a used, revoked or expired link; 409 when the address has a user.
 */
export async function acceptInvitation(deps: InvitationDeps, body: unknown): Promise<DashboardUser> {
  const { token, password } = parseWith(acceptInvitationRequestSchema, body, 'invitation');
  const invitation = await invitationOfToken(deps, token);
  const now = deps.clock.now();
  const user: DashboardUser = {
    id: newId('usr'),
    account_id: invitation.account_id,
    email: invitation.email,
    role: invitation.role,
    password_hash: await deps.passwords.hash(password),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.invitations.accept(invitationTokenHash(token), user, now);
  return user;
}
