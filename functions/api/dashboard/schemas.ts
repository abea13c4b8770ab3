/** Response schemas of the dashboard's doors: the session (docs/dashboard.md), members and invitations ("Teams and roles"). */
import * as z from 'zod';
import { DASHBOARD_ROLES } from '#shared/domain/dashboard/roles';
import type { toPublicUser } from '#shared/domain/dashboard/user';
import { describing, idOf, timestamp } from '#shared/doors/openapi/common-schemas';
import type { toPublicInvitation } from '#shared/domain/dashboard/invitation';

export const dashboardUserSchema = describing<ReturnType<typeof toPublicUser>>()(
  z.strictObject({
    object: z.literal('dashboard_user').describe('always `dashboard_user`'),
    id: idOf('usr').describe("the user's id (usr_...)"),
    account_id: idOf('acc').describe('the account the user belongs to (acc_...)'),
    email: z.string().describe('the address the user signs in with (lower-cased)'),
    role: z.enum(DASHBOARD_ROLES).describe('owner, admin, developer or viewer (docs/dashboard.md, "Teams and roles")'),
    created_at: timestamp.describe('when the user was created (ISO 8601)'),
  }),
);

/** POST /dashboard/sign-in (JSON), GET /dashboard/session. */
export const sessionSchema = z.strictObject({
  user: dashboardUserSchema.describe('who is signed in'),
  csrf_token: z.string().describe('send as X-CSRF-Token on every state-changing request of the session'),
  expires_at: timestamp.describe('the session ends at this time whatever happens'),
  idle_expires_at: timestamp.describe('the session ends at this time unless used before'),
});

export const invitationSchema = describing<ReturnType<typeof toPublicInvitation>>()(
  z.strictObject({
    object: z.literal('dashboard_invitation').describe('always `dashboard_invitation`'),
    id: idOf('inv').describe("the invitation's id (inv_...)"),
    account_id: idOf('acc').describe('the account the invitee joins (acc_...)'),
    email: z.string().describe('the invited address (lower-cased)'),
    role: z.enum(DASHBOARD_ROLES).describe('the role the invitee gets'),
    invited_by: z.string().describe('the email of the member who invited'),
    created_at: timestamp.describe('when it was made (ISO 8601)'),
    expires_at: timestamp.describe('the link stops working at this time (7 days after it was made)'),
  }),
);

export const teamSchema = z.strictObject({
  members: z.array(dashboardUserSchema).describe("the account's dashboard users, oldest first"),
  invitations: z.array(invitationSchema).describe('invitations not accepted, revoked or expired yet, oldest first'),
});

export const invitationCreatedSchema = z.strictObject({
  invitation: invitationSchema.describe('the pending invitation'),
  link: z.string().describe('the link the invitee opens to set a password: shown only here (only its hash is kept); hand it over'),
});

export const memberEnvelopeSchema = z.strictObject({ member: dashboardUserSchema.describe('the member as it is now') });
