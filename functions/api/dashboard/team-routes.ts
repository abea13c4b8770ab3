/**
 * The team's JSON doors and the invitation's accept door (docs/dashboard.md, "Teams and roles"):
 *
 *   GET    /dashboard/team                      (session, any role) -> 200 {members, invitations}
 *   POST   /dashboard/team/invitations          (session + CSRF; owner, admin) {email, role} -> 201 {invitation, link}
 *   DELETE /dashboard/team/invitations/{id}     (session + CSRF; owner, admin) -> 200 {ok: true}
 *   PATCH  /dashboard/team/members/{id}         (session + CSRF; owner, admin) {role} -> 200 {member}; 409 for the last owner
 *   DELETE /dashboard/team/members/{id}         (session + CSRF; owner, admin) -> 200 {ok: true}; 409 for the last owner
 *   GET    /dashboard/accept-invitation?token=  the accept page (no session)
 *   POST   /dashboard/accept-invitation         {token, password} as JSON -> 200 as the sign-in, with the cookie;
 *                                               as the page's form -> 303 to the dashboard, or the page again with the error
 *
 * Who may do what is the use cases' (shared/usecases/dashboard/team.ts, invitations.ts); the session
 * middleware refuses a viewer every change before that.
 */
import type { Context, Hono } from 'hono';
import { isTokenShaped, sessionTokenHash } from '#shared/domain/dashboard/session-token';
import { dashboardOrigin, toPublicInvitation } from '#shared/domain/dashboard/invitation';
import { toPublicUser, type DashboardUser } from '#shared/domain/dashboard/user';
import { AppError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { requireSameOrigin } from '#shared/doors/http/middleware/same-origin';
import { isFormBody, requireSession } from '#shared/doors/http/middleware/session';
import { routes } from '#shared/doors/http/route';
import { sessionCookieToken, setSessionCookie } from '#shared/doors/http/session-cookie';
import { readJson } from '#shared/doors/http/request-validation';
import { dashboardOps } from './operations';
import { endSession, startSession } from '#shared/usecases/dashboard/sessions';
import { acceptInvitation, invitationOfToken, inviteMember, revokeInvitation } from '#shared/usecases/dashboard/invitations';
import { changeMemberRole, listTeam, removeMember } from '#shared/usecases/dashboard/team';
import { errorText, HOME_PATH } from './pages/forms';
import { acceptInvitationPage } from './pages/accept-invitation';
import type { DashboardServices } from './services';

const originOf = (c: Context<ApiEnv>) => dashboardOrigin(c.req.url);

export function addTeamRoutes(app: Hono<ApiEnv>, services: DashboardServices): void {
  addTeamDoors(app, services);
  addAcceptInvitationRoutes(app, services);
}

/** The team's JSON doors: the list, invite and revoke, change a member's role, remove a member. */
function addTeamDoors(app: Hono<ApiEnv>, services: DashboardServices): void {
  const route = routes(app);
  const session = { before: [requireSession(services)] };
  const actor = (c: Context<ApiEnv>) => c.get('session').user;

  route(
    dashboardOps.getTeam,
    async (c) => {
      const { members, invitations } = await listTeam(services, actor(c));
      return c.json({ members: members.map(toPublicUser), invitations: invitations.map(toPublicInvitation) }, 200);
    },
    session,
  );

  route(
    dashboardOps.createInvitation,
    async (c, { body }) => {
      const { invitation, link } = await inviteMember(services, actor(c), body, originOf(c));
      return c.json({ invitation: toPublicInvitation(invitation), link }, 201);
    },
    session,
  );

  route(
    dashboardOps.revokeInvitation,
    async (c, { params }) => {
      await revokeInvitation(services, actor(c), params.id);
      return c.json({ ok: true as const }, 200);
    },
    session,
  );

  route(
    dashboardOps.updateMember,
    async (c, { params, body }) => {
      const member = await changeMemberRole(services, actor(c), params.id, body);
      return c.json({ member: toPublicUser(member) }, 200);
    },
    session,
  );

  route(
    dashboardOps.removeMember,
    async (c, { params }) => {
      await removeMember(services, actor(c), params.id);
      return c.json({ ok: true as const }, 200);
    },
    session,
  );
}

/** The accept page's form refused: the page again, with the error (and the same status). */
async function acceptPageAgain(
  c: Context<ApiEnv>,
  services: DashboardServices,
  form: Record<string, string>,
  error: AppError,
): Promise<Response> {
  const invitation = await invitationOfToken(services, form.token).catch(() => null);
  return acceptInvitationPage(c, {
    token: form.token ?? '',
    invitation,
    error: errorText(error),
    status: error.status as 400 | 403 | 409,
  });
}

/** Signed in at once, as after a sign-in (a session this browser held before is over): 303 to the dashboard for the page's form, the sign-in's answer for JSON. */
async function signInAccepted(c: Context<ApiEnv>, services: DashboardServices, user: DashboardUser, fromForm: boolean): Promise<Response> {
  const previous = sessionCookieToken(c);
  if (isTokenShaped(previous)) await endSession(services, sessionTokenHash(previous));
  const { token, session: started } = await startSession(services, user);
  setSessionCookie(c, token, started);
  if (fromForm) return c.redirect(HOME_PATH, 303);
  return c.json(
    {
      user: toPublicUser(user),
      csrf_token: started.csrf_token,
      expires_at: started.expires_at,
      idle_expires_at: started.idle_expires_at,
    },
    200,
  );
}

/** The invitation's accept page (no session) and its door (the page's form, or JSON). */
function addAcceptInvitationRoutes(app: Hono<ApiEnv>, services: DashboardServices): void {
  const route = routes(app);

  // The accept page: the invitation the link names, or the page saying it is not valid (400).
  app.get(dashboardOps.acceptInvitation.path, async (c) => {
    const token = c.req.query('token') ?? '';
    try {
      return acceptInvitationPage(c, { token, invitation: await invitationOfToken(services, token) });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return acceptInvitationPage(c, { token, invitation: null, error: errorText(error), status: 400 });
    }
  });

  route(
    dashboardOps.acceptInvitation,
    async (c) => {
      const form = isFormBody(c) ? Object.fromEntries(new URLSearchParams(await c.req.text())) : null;
      let user: DashboardUser;
      try {
        user = await acceptInvitation(services, form ?? (await readJson(c)));
      } catch (error) {
        // The accept page's form: the page again, with the error (and the same status).
        if (!form || !(error instanceof AppError) || error.status >= 500) throw error;
        return acceptPageAgain(c, services, form, error);
      }
      return signInAccepted(c, services, user, form !== null);
    },
    { before: [requireSameOrigin()] },
  );
}
