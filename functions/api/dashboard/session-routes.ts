/**
 * The dashboard's session doors (docs/dashboard.md, "Sign-in and sessions"):
 *
 *   POST /dashboard/sign-in   {email, password} as JSON -> 200 {user, csrf_token, expires_at,
 *                             idle_expires_at} and the `svc_session` cookie. Same-origin only (a login
 *                             CSRF cannot sign a victim in to someone else's account); rate limited (429
 *                             with Retry-After); one 401 for every bad email/password. As an HTML form
 *                             (url-encoded, from the sign-in page): 303 to the form's `next` (a dashboard
 *                             page; else /dashboard/emails) with the cookie, or the sign-in page again
 *                             with the error and the same status.
 *   POST /dashboard/sign-out  (session + CSRF) -> 200 {ok: true}; the session is deleted and the cookie
 *                             cleared. As an HTML form (the header's button): 303 to the sign-in page.
 *   GET  /dashboard/session   (session) -> 200, the same answer as the sign-in: who is signed in and the CSRF token.
 */
import type { Context, Hono } from 'hono';
import { signInRequestSchema } from '#shared/domain/dashboard/schemas';
import { isTokenShaped, sessionTokenHash } from '#shared/domain/dashboard/session-token';
import { toPublicUser, type DashboardUser } from '#shared/domain/dashboard/user';
import { AppError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { sourceIpOf } from '#shared/doors/http/middleware/audit';
import { requireSameOrigin } from '#shared/doors/http/middleware/same-origin';
import { isFormBody as isForm, requireSession } from '#shared/doors/http/middleware/session';
import { routes } from '#shared/doors/http/route';
import { clearSessionCookie, sessionCookieToken, setSessionCookie } from '#shared/doors/http/session-cookie';
import { parseWith, readJson } from '#shared/doors/http/request-validation';
import { dashboardOps } from './operations';
import type { StoredSession } from '#shared/adapters/store/sessions';
import { endSession } from '#shared/usecases/dashboard/sessions';
import { signIn } from '#shared/usecases/dashboard/sign-in';
import { errorText, redirectTo, safeNext } from './pages/forms';
import { signInPage } from './pages/sign-in';
import type { DashboardServices } from './services';

/** The body as an object: an HTML form's fields, or JSON (any other content type is read as JSON). */
async function formOrJson(c: Context): Promise<unknown> {
  if (isForm(c)) return Object.fromEntries(new URLSearchParams(await c.req.text()));
  return readJson(c);
}

function sessionAnswer(user: DashboardUser, session: StoredSession) {
  return {
    user: toPublicUser(user),
    csrf_token: session.csrf_token,
    expires_at: session.expires_at,
    idle_expires_at: session.idle_expires_at,
  };
}

export function addSessionRoutes(app: Hono<ApiEnv>, services: DashboardServices): void {
  const route = routes(app);

  route(
    dashboardOps.signIn,
    async (c) => {
      const body = await formOrJson(c);
      const form = isForm(c) ? (body as Record<string, string>) : null;
      let started: Awaited<ReturnType<typeof signIn>>;
      try {
        started = await signIn(services, parseWith(signInRequestSchema, body), {
          ip: sourceIpOf(c) ?? '',
          userAgent: c.req.header('user-agent') ?? null,
          requestId: c.get('requestId') ?? null,
        });
      } catch (error) {
        // The sign-in page's form: the page again, with the error (and the same status).
        if (!form || !(error instanceof AppError) || error.status >= 500) throw error;
        for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
        const text = error.status === 400 ? 'Enter your email and password.' : errorText(error);
        return signInPage(c, {
          next: form.next,
          email: form.email,
          error: text,
          status: error.status as 400 | 401 | 403 | 429,
          oidc: services.oidc?.settings ?? null,
        });
      }
      const { user, token, session } = started;
      // A session this browser held before is over: one cookie, one session.
      const previous = sessionCookieToken(c);
      if (isTokenShaped(previous)) await endSession(services, sessionTokenHash(previous));
      setSessionCookie(c, token, session);
      if (form) return c.redirect(safeNext(form.next), 303);
      return c.json(sessionAnswer(user, session), 200);
    },
    { before: [requireSameOrigin()] },
  );

  route(
    dashboardOps.signOut,
    async (c) => {
      await endSession(services, c.get('session').tokenHash);
      clearSessionCookie(c);
      if (isForm(c)) return redirectTo(c, '/dashboard/sign-in', { kind: 'ok', text: 'Signed out.' });
      return c.json({ ok: true }, 200);
    },
    { before: [requireSession(services, { anyRole: true })] },
  );

  route(
    dashboardOps.getSession,
    (c) => {
      const { user, session } = c.get('session');
      return c.json(sessionAnswer(user, session), 200);
    },
    { before: [requireSession(services)] },
  );
}
