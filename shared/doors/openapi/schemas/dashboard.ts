/** Response schemas of the dashboard's team doors (docs/dashboard.md, "Teams and roles"): members and invitations. */
import * as z from 'zod';
import type { toPublicInvitation } from '../../../domain/dashboard/invitation';
import { DASHBOARD_ROLES } from '../../../domain/dashboard/roles';
import { dashboardUserSchema } from './account';
import { describing, idOf, timestamp } from './common';

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
