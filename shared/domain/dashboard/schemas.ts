/**
 * Request bodies of the dashboard's session doors (docs/dashboard.md): the single source of their
 * validation and types. `POST /dashboard/sign-in` takes JSON or an HTML form with the same fields.
 */
import * as z from 'zod';
import { isEmailAddress, normaliseEmail } from '../mail/address';
import { MAX_PASSWORD_LENGTH, newPasswordSchema } from './password-policy';
import { DASHBOARD_ROLES } from './roles';

export const signInRequestSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .refine(isEmailAddress, 'email must be a valid email address')
    .transform(normaliseEmail)
    .describe("the dashboard user's email address (case-insensitive)"),
  // Any length up to the maximum: a password set under an older, shorter minimum still signs in.
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(MAX_PASSWORD_LENGTH * 4, 'password is too long')
    .describe("the user's password"),
});

export type SignInRequest = z.output<typeof signInRequestSchema>;

/** A new dashboard user (the admin CLI's `user create`; later the dashboard's team page). */
export const newUserSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .refine(isEmailAddress, 'email must be a valid email address')
    .transform(normaliseEmail),
  password: newPasswordSchema,
});

const roleField = z
  .enum(DASHBOARD_ROLES, { error: `role must be one of ${DASHBOARD_ROLES.join(', ')}` })
  .describe('owner, admin, developer or viewer (docs/dashboard.md, "Teams and roles")');

/** An invitation (POST /dashboard/team/invitations, the members page's form). */
export const inviteRequestSchema = z.strictObject({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .refine(isEmailAddress, 'email must be a valid email address')
    .transform(normaliseEmail)
    .describe('the address to invite (case-insensitive)'),
  role: roleField,
});
export type InviteRequest = z.output<typeof inviteRequestSchema>;

/** A member's new role (PATCH /dashboard/team/members/{id}, the members page's form). */
export const changeRoleRequestSchema = z.strictObject({ role: roleField });

/** Accepting an invitation (POST /dashboard/accept-invitation, JSON or the accept page's form). */
export const acceptInvitationRequestSchema = z.object({
  token: z
    .string({ error: 'token is required' })
    .min(1, 'token is required')
    .max(200, 'token is not valid')
    .describe("the invitation link's token"),
  password: newPasswordSchema.describe("the new user's password (at least 12 characters)"),
});
