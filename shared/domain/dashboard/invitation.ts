/**
 * A dashboard invitation (docs/dashboard.md, "Teams and roles"): an owner or admin invites an address to
 * the account with a role. The invitee proves it with a single-use token (32 random bytes, base64url)
 * that only the link carries: the table keeps its SHA-256 (as session tokens: a copy of the table accepts
 * nothing), and the item is deleted when accepted, in the same transaction that creates the user.
 * It expires INVITATION_TTL_MS after it was made (checked on accept; the item's TTL removes it later).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ulid } from '../ids';
import { DASHBOARD_ROLES } from './roles';

/** Seven days: long enough to be seen after a weekend, short enough that a forgotten link dies. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export const ACCEPT_INVITATION_PATH = '/dashboard/accept-invitation';

export const invitationSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  email: z.string(),
  role: z.enum(DASHBOARD_ROLES),
  /** The inviter's user id and email. */
  invited_by: z.string(),
  invited_by_email: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type Invitation = z.output<typeof invitationSchema>;

export const newInvitationId = (now?: number): string => `inv_${ulid(now)}`;

export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

export const invitationTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The dashboard's origin as the inviter's browser reached it, from the request's URL: API Gateway serves
 * HTTPS only, and the Lambda adapter always says https; the local cloud serves plain HTTP on a loopback
 * address (localhost, 127.x.y.z, [::1]), where the link must say http to open.
 */
export function dashboardOrigin(requestUrl: string): string {
  const url = new URL(requestUrl);
  const loopback = url.hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname === '[::1]';
  return `${loopback ? 'http' : 'https'}://${url.host}`;
}

/** The link the invitee opens (the accept page on the dashboard's origin). */
export const invitationLink = (origin: string, token: string): string =>
  `${origin.replace(/\/+$/, '')}${ACCEPT_INVITATION_PATH}?${new URLSearchParams({ token })}`;

export const invitationExpired = (invitation: Pick<Invitation, 'expires_at'>, now: Date): boolean =>
  Date.parse(invitation.expires_at) <= now.getTime();

/** What the answers show of an invitation (never the token or its hash). */
export function toPublicInvitation(invitation: Invitation) {
  return {
    object: 'dashboard_invitation' as const,
    id: invitation.id,
    account_id: invitation.account_id,
    email: invitation.email,
    role: invitation.role,
    invited_by: invitation.invited_by_email,
    created_at: invitation.created_at,
    expires_at: invitation.expires_at,
  };
}
