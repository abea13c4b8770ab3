/**
 * The invitation page (docs/dashboard.md, "Teams and roles"): the link an owner or admin handed over
 * opens it (`/dashboard/accept-invitation?token=...`); it names the account's invitation (address, role)
 * and asks for a password. The form posts (url-encoded) to POST /dashboard/accept-invitation
 * (../team-routes.ts), which creates the user, signs it in and answers 303 to the dashboard, or renders
 * this page again with the error. No session exists yet: the post's same-origin check and the token protect it.
 */
import type { Context } from 'hono';
import { ACCEPT_INVITATION_PATH, type Invitation } from '#shared/domain/dashboard/invitation';
import { MIN_PASSWORD_LENGTH } from '#shared/domain/dashboard/password-policy';
import type { ApiEnv } from '#shared/doors/http/env';
import { HOME_PATH, SIGN_IN_PATH } from './forms';
import { html, respond, type PageOptions } from './layout';

export interface AcceptPageOptions {
  token: string;
  /** The invitation the token names; null when it is not valid (used, revoked, expired, unknown). */
  invitation: Invitation | null;
  error?: string;
  status?: PageOptions['status'];
}

export function acceptInvitationPage(c: Context<ApiEnv>, options: AcceptPageOptions): Response {
  const { invitation } = options;
  const flash = options.error ? { kind: 'error' as const, text: options.error } : null;
  const body = invitation
    ? html`<p>You are invited to the dashboard of a mail service account as <strong>${invitation.role}</strong>, by ${invitation.invited_by_email}. Set a password for <strong>${invitation.email}</strong> to accept; you will sign in with this address.</p>
<form method="post" action="${ACCEPT_INVITATION_PATH}" class="card narrow">
<input type="hidden" name="token" value="${options.token}">
<div class="field"><label for="accept-email">Email</label><input id="accept-email" type="email" value="${invitation.email}" autocomplete="username" readonly></div>
<div class="field"><label for="accept-password">Password</label><input id="accept-password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required autofocus aria-describedby="accept-password-hint"><span class="hint" id="accept-password-hint">At least ${MIN_PASSWORD_LENGTH} characters; a few words are easiest.</span></div>
<p><button type="submit">Accept and sign in</button></p>
</form><p class="hint">The link works once and until ${invitation.expires_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}.</p>`
    : html`<p><a href="${`${SIGN_IN_PATH}?${new URLSearchParams({ next: HOME_PATH })}`}">Sign in</a> if you already accepted it.</p>`;
  return respond(c, { title: 'Accept the invitation', body, flash, user: null, status: options.status ?? 200 });
}
