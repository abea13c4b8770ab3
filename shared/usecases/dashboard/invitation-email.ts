/**
 * The invitation email (docs/dashboard.md, "Teams and roles"): sent through the product's own send core
 * (sendEmail), as the inviter (the session's principal), from the sender the inviter names: an address on
 * a verified domain of the account. Not from the sandbox: the sandbox sender only ever reaches the
 * account's own address (docs/api.md), never a teammate's. Without a sender the inviter hands the link over.
 * The send core's own rules apply (403 domain_not_verified, suppressions, plan limits, ...).
 */
import type { Invitation } from '../../domain/dashboard/invitation';
import { ROLE_DESCRIPTIONS } from '../../domain/dashboard/roles';
import { sendRequestSchema } from '../../domain/emails/send-request';
import { escapeHtml } from '../../domain/html';
import { parseWith } from '../../domain/request-validation';
import type { Principal } from '../access/principal';
import { sendEmail, type SendDeps, type SendResult } from '../send';

/** The invitation as an email: who invites, the role, the link and until when it works. */
export function invitationMessage(invitation: Invitation, link: string) {
  const until = invitation.expires_at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  const lines = [
    `${invitation.invited_by_email} invited you to their mail service dashboard as ${invitation.role} (${ROLE_DESCRIPTIONS[invitation.role]}).`,
    'Open this link to set a password and sign in:',
    link,
    `It works once, until ${until}. If you did not expect it, ignore this email.`,
  ];
  return {
    subject: `${invitation.invited_by_email} invited you to their mail service dashboard`,
    text: lines.join('\n\n'),
    html: `<p>${escapeHtml(lines[0]!)}</p><p>${escapeHtml(lines[1]!)}<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(lines[3]!)}</p>`,
  };
}

/** Sends the invitation to its address from `from` (400 for a bad address; the send core's 403s for a sender it refuses). */
export async function emailInvitation(
  deps: SendDeps,
  principal: Principal,
  invitation: Invitation,
  link: string,
  from: string,
): Promise<SendResult> {
  const request = parseWith(
    sendRequestSchema,
    { from, to: invitation.email, ...invitationMessage(invitation, link), tags: [{ name: 'source', value: 'dashboard_invitation' }] },
    'invitation email',
  );
  return sendEmail(deps, { principal }, request);
}
