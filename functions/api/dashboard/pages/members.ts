/**
 * The members page (docs/dashboard.md, "Teams and roles"): the account's dashboard users and pending
 * invitations, for every role; to owners and admins also the forms to invite, change a role, remove a
 * member and revoke an invitation (a developer or viewer sees the list only; the doors refuse them
 * anyway: 403). The invite form posts to the dashboard-emails function (INVITE_PATH), which can email
 * the invitation through the send core; its answer shows the link when it is to be handed over.
 */
import { can, DASHBOARD_ROLES, ROLE_DESCRIPTIONS, type DashboardRole } from '#shared/domain/dashboard/roles';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { listTeam, changeMemberRole, removeMember } from '#shared/usecases/dashboard/team';
import { revokeInvitation } from '#shared/usecases/dashboard/invitations';
import type { DashboardServices } from '../services';
import { buttonForm, field, input, param, postForm, redirectTo, render, roleCheckedAction, select, type PageContext } from './forms';
import type { PageRoutes } from './page-routes';
import { html, table, time } from './layout';
import { INVITE_PATH, MEMBERS_PATH } from './team-paths';

const roleChoices = (actor: DashboardRole) =>
  DASHBOARD_ROLES.filter((role) => role !== 'owner' || can(actor, 'manage_owners')).map((role) => ({
    value: role,
    label: `${role}: ${ROLE_DESCRIPTIONS[role]}`,
  }));

/** The members and pending invitations; to owners and admins also the forms that manage them. */
async function membersPage(services: DashboardServices, c: PageContext): Promise<Response> {
  const actor = c.get('session').user;
  const { members, invitations } = await listTeam(services, actor);
  const manages = can(actor.role, 'manage_members');
  const mayChange = (member: DashboardUser) => manages && (member.role !== 'owner' || can(actor.role, 'manage_owners'));
  const memberRows = members.map(
    (member) =>
      html`<tr><td id="member-${member.id}">${member.email}${member.id === actor.id ? html` <span class="muted">(you)</span>` : ''}</td><td>${member.role}</td><td>${time(member.created_at)}</td><td>${
        mayChange(member)
          ? html`${postForm(c, `${MEMBERS_PATH}/${member.id}/role`, html`${select('Role', 'role', roleChoices(actor.role), member.role)}<button type="submit" aria-describedby="member-${member.id}">Change role</button>`, 'class="inline"')}${buttonForm(c, `${MEMBERS_PATH}/${member.id}/remove`, 'Remove', { className: 'danger', describedBy: `member-${member.id}` })}`
          : ''
      }</td></tr>`,
  );
  const invitationRows = invitations.map(
    (invitation) =>
      html`<tr><td id="inv-${invitation.id}">${invitation.email}</td><td>${invitation.role}</td><td>${invitation.invited_by_email}</td><td>${time(invitation.expires_at)}</td><td>${
        manages && (invitation.role !== 'owner' || can(actor.role, 'manage_owners'))
          ? buttonForm(c, `${MEMBERS_PATH}/invitations/${invitation.id}/revoke`, 'Revoke', {
              className: 'danger',
              describedBy: `inv-${invitation.id}`,
            })
          : ''
      }</td></tr>`,
  );
  // The invite form posts to the dashboard-emails function, which holds the send core (INVITE_PATH).
  const inviteForm = manages
    ? html`<section aria-labelledby="invite-heading"><h2 id="invite-heading">Invite a member</h2>${postForm(
        c,
        INVITE_PATH,
        html`<div class="fields">${input('Email', 'email', { type: 'email', required: true, placeholder: 'teammate@example.com' })}${select('Role', 'role', roleChoices(actor.role), 'developer')}${input('Send from', 'send_from', { type: 'email', placeholder: 'team@your-verified-domain.com', hint: 'Optional: an address on a verified domain of this account emails the invitation. Empty: you get the link to hand over.' })}</div><p><button type="submit">Invite</button></p>`,
      )}<p class="hint">The link works once, for 7 days.</p></section>`
    : html`<p class="muted">Your role (${actor.role}) cannot manage members: owners and admins can.</p>`;
  const body = html`<p>You are signed in as <strong>${actor.email}</strong>, <strong>${actor.role}</strong>: ${ROLE_DESCRIPTIONS[actor.role]}.</p>
${inviteForm}
<h2>Members</h2>${table('Dashboard users of this account, oldest first', ['Email', 'Role', 'Since', 'Actions'], memberRows, 'No members.')}
<h2>Pending invitations</h2>${table('Invitations not accepted yet', ['Email', 'Role', 'Invited by', 'Expires', 'Actions'], invitationRows, 'No pending invitations.')}`;
  return render(c, { title: 'Members', body });
}

export function addMemberPages(routes: PageRoutes<DashboardServices>): void {
  const { services } = routes;

  routes.page('/members', (c) => membersPage(services, c));

  routes.action('/members/:id/role', (c, form) =>
    roleCheckedAction(c, MEMBERS_PATH, async () => {
      const member = await changeMemberRole(services, c.get('session').user, param(c, 'id'), { role: field(form, 'role') ?? '' });
      return redirectTo(c, MEMBERS_PATH, { kind: 'ok', text: `${member.email} is now ${member.role}.` });
    }),
  );

  routes.action('/members/:id/remove', (c) =>
    roleCheckedAction(c, MEMBERS_PATH, async () => {
      const member = await removeMember(services, c.get('session').user, param(c, 'id'));
      return redirectTo(c, MEMBERS_PATH, { kind: 'ok', text: `${member.email} was removed: they can no longer sign in.` });
    }),
  );

  routes.action('/members/invitations/:id/revoke', (c) =>
    roleCheckedAction(c, MEMBERS_PATH, async () => {
      await revokeInvitation(services, c.get('session').user, param(c, 'id'));
      return redirectTo(c, MEMBERS_PATH, { kind: 'ok', text: 'Invitation revoked: its link no longer works.' });
    }),
  );
}
