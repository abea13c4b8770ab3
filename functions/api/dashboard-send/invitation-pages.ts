/**
 * Inviting a member from the members page (docs/dashboard.md, "Teams and roles"): its form posts here,
 * to the dashboard-send function, the one that holds the send core (the main
 * dashboard function has no mail bucket, and dashboard-emails has no room left under the 1 MiB bundle
 * limit: infra/definitions/api-groups.ts). The invitation is made (owners and admins:
 * shared/usecases/dashboard/invitations.ts) and then
 *
 *   - with `send_from` (an address on a verified domain of the account): emailed through the send core
 *     (shared/usecases/dashboard/invitation-email.ts); if the send is refused, the invitation is revoked
 *     and the members page says why;
 *   - without: the answer shows the link, once, for the inviter to hand over.
 *
 * On the local cloud (a loopback origin) the link is shown in both cases: no real mailbox receives it.
 */
import { dashboardOrigin, type Invitation } from '#shared/domain/dashboard/invitation';
import { AppError } from '#shared/domain/errors';
import { emailInvitation } from '#shared/usecases/dashboard/invitation-email';
import { inviteMember, revokeInvitation } from '#shared/usecases/dashboard/invitations';
import { field, problemFlash, redirectTo, render, roleCheckedAction, secretBox, type PageContext } from '../dashboard/pages/forms';
import { html } from '../dashboard/pages/layout';
import { MEMBERS_PATH } from '../dashboard/pages/team-paths';
import type { PageRoutes } from '../dashboard/pages/page-routes';
import type { DashboardSendServices } from './services';
import { recordCreated } from '#shared/doors/http/created-ids';

const isLocal = (c: PageContext) => dashboardOrigin(c.req.url).startsWith('http://');

function invitedPage(c: PageContext, invitation: Invitation, link: string, emailId: string | null): Response {
  const showLink = emailId === null || isLocal(c);
  const body = html`<p class="ok">${invitation.email} is invited as <strong>${invitation.role}</strong>.${emailId ? html` The invitation was emailed: <a href="/dashboard/emails/${emailId}">follow it</a>.` : ''}</p>
${showLink ? secretBox('Invitation link', link, `${emailId ? 'This is the local cloud, where no real mailbox receives it: the link is shown too. ' : ''}Hand this link to ${invitation.email}: it opens the page where they set a password. It is shown only this once (only its hash is kept), works once and expires in 7 days.`) : ''}
<p><a href="${MEMBERS_PATH}">Back to the members</a></p>`;
  return render(c, { title: 'Invitation', body });
}

export function addInvitationPages(routes: PageRoutes<DashboardSendServices>): void {
  const { services } = routes;

  routes.action('/invitations', (c, form) =>
    roleCheckedAction(c, MEMBERS_PATH, async () => {
      const actor = c.get('session').user;
      const origin = dashboardOrigin(c.req.url);
      const { invitation, link } = await inviteMember(
        services,
        actor,
        { email: field(form, 'email') ?? '', role: field(form, 'role') ?? '' },
        origin,
      );
      recordCreated(c, 'id', invitation.id);
      const from = field(form, 'send_from');
      if (!from) return invitedPage(c, invitation, link, null);
      try {
        const sent = await emailInvitation(services, c.get('principal'), invitation, link, from);
        return invitedPage(c, invitation, link, sent.id);
      } catch (error) {
        // Not sent: the invitation goes too (its link was never shown), and the page says why.
        await revokeInvitation(services, actor, invitation.id);
        if (!(error instanceof AppError) || error.status >= 500 || error.status === 401) throw error;
        return redirectTo(c, MEMBERS_PATH, {
          kind: 'error',
          text: `The invitation was not sent (and not kept): ${problemFlash(error).text}`,
        });
      }
    }),
  );
}
