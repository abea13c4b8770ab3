/**
 * Sign-in with the deployment's OpenID Connect provider (docs/dashboard.md, "Sign-in with OpenID Connect"):
 *
 *   GET /dashboard/sign-in/oidc[?next=]      a new flow (shared/usecases/dashboard/oidc-sign-in.ts), its token
 *                                            in the `svc_oidc` cookie (HttpOnly, 10 minutes, this path only),
 *                                            302 to the provider.
 *   GET /dashboard/sign-in/oidc/callback     the provider's answer: the member signed in, the `svc_session`
 *                                            cookie set as the password sign-in sets it, 303 to `next`.
 *
 * Every refusal answers the sign-in page with the reason and its status (400, 401, 403, 404, 429; 503 when
 * the provider cannot be reached), never a 500. The flow's cookie is cleared by the callback whatever
 * happens: a flow is used once.
 */
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { dashboardOrigin } from '#shared/domain/dashboard/invitation';
import { OIDC_FLOW_COOKIE, OIDC_FLOW_TTL_MS, OIDC_START_PATH } from '#shared/domain/dashboard/oidc';
import { isTokenShaped, sessionTokenHash } from '#shared/domain/dashboard/session-token';
import { AppError } from '#shared/domain/errors';
import type { ApiEnv } from '#shared/doors/http/env';
import { sourceIpOf } from '#shared/doors/http/middleware/audit';
import { routes } from '#shared/doors/http/route';
import { sessionCookieToken, setSessionCookie } from '#shared/doors/http/session-cookie';
import { dashboardOps } from './operations';
import {
  completeOidcSignIn,
  startOidcSignIn,
  type CompletedOidcSignIn,
  type OidcSignInDeps,
  type StartedOidcSignIn,
} from '#shared/usecases/dashboard/oidc-sign-in';
import { endSession } from '#shared/usecases/dashboard/sessions';
import { errorText, safeNext } from './pages/forms';
import { signInPage } from './pages/sign-in';
import type { DashboardServices } from './services';

/** The flow's cookie: only this path and its callback ever see it. */
const FLOW_COOKIE_ATTRIBUTES = { path: OIDC_START_PATH, httpOnly: true, secure: true, sameSite: 'Lax' } as const;

const REFUSAL_STATUSES = [400, 401, 403, 404, 429, 503] as const;
type RefusalStatus = (typeof REFUSAL_STATUSES)[number];

/** An AppError the person can act on as the sign-in page with its status; anything else is thrown on (a 500). */
function refusedPage(c: Context<ApiEnv>, services: DashboardServices, error: unknown, next?: string | null): Response {
  if (!(error instanceof AppError) || !(REFUSAL_STATUSES as readonly number[]).includes(error.status)) throw error;
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  return signInPage(c, {
    next,
    error: errorText(error),
    status: error.status as RefusalStatus,
    oidc: error.status === 404 ? null : (services.oidc?.settings ?? null),
  });
}

export function addOidcRoutes(app: Hono<ApiEnv>, services: DashboardServices): void {
  const route = routes(app);
  const deps: OidcSignInDeps = { ...services, oidc: services.oidc ?? null };

  route(dashboardOps.oidcSignIn, async (c, { query }) => {
    const next = safeNext(query.next);
    let started: StartedOidcSignIn;
    try {
      started = await startOidcSignIn(deps, { origin: dashboardOrigin(c.req.url), next }, { ip: sourceIpOf(c) ?? '' });
    } catch (error) {
      return refusedPage(c, services, error, next);
    }
    setCookie(c, OIDC_FLOW_COOKIE, started.flowToken, { ...FLOW_COOKIE_ATTRIBUTES, maxAge: OIDC_FLOW_TTL_MS / 1000 });
    c.header('Cache-Control', 'no-store');
    return c.redirect(started.authorizationUrl.href, 302);
  });

  route(dashboardOps.oidcCallback, async (c) => {
    const flowToken = getCookie(c, OIDC_FLOW_COOKIE);
    if (flowToken !== undefined) deleteCookie(c, OIDC_FLOW_COOKIE, FLOW_COOKIE_ATTRIBUTES);
    c.header('Cache-Control', 'no-store');
    let completed: CompletedOidcSignIn;
    try {
      completed = await completeOidcSignIn(
        deps,
        { flowToken, query: new URL(c.req.url).searchParams },
        { ip: sourceIpOf(c) ?? '', userAgent: c.req.header('user-agent') ?? null, requestId: c.get('requestId') ?? null },
      );
    } catch (error) {
      return refusedPage(c, services, error);
    }
    // A session this browser held before is over: one cookie, one session (as the password sign-in).
    const previous = sessionCookieToken(c);
    if (isTokenShaped(previous)) await endSession(services, sessionTokenHash(previous));
    setSessionCookie(c, completed.token, completed.session);
    return c.redirect(completed.next, 303);
  });
}
