/**
 * Session authentication for the dashboard group (docs/dashboard.md): the `svc_session` cookie resolves
 * to the signed-in user's principal (shared/usecases/dashboard/sessions.ts; 401 without a live session).
 * State-changing requests (anything but GET, HEAD, OPTIONS) must also
 *
 *   1. come from the dashboard's own origin when the browser says where they come from (`Origin`,
 *      `Sec-Fetch-Site`: ./same-origin.ts), and
 *   2. carry the session's CSRF token in `X-CSRF-Token`, or as the `csrf_token` field of a
 *      form-encoded body (an HTML form without script),
 *
 * else 403 forbidden. The cookie alone never changes anything: another site can make a browser send it
 * (SameSite=Lax stops most of that, not all: e.g. a same-site sibling), but cannot read the token.
 *
 * Roles (docs/dashboard.md, "Teams and roles"; shared/domain/dashboard/roles.ts): a state-changing request
 * also needs a role that may change things (not `viewer`): 403 naming the role, after the origin and the
 * token. Every page, form and /api door goes through here, so a viewer is refused every change in one
 * place; only signing out is open to every role (`anyRole`). Finer rights (members, owners) are the use
 * cases' (shared/usecases/dashboard/team.ts) or a route's `requireRole`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { assertCan, type DashboardAction } from '#shared/domain/dashboard/roles';
import { CSRF_FORM_FIELD, CSRF_HEADER, csrfTokenMatches } from '#shared/domain/dashboard/session-token';
import { ForbiddenError } from '#shared/domain/errors';
import { resolveSession, type SessionDeps } from '#shared/usecases/dashboard/sessions';
import type { ApiEnv } from '../env';
import { sessionCookieToken } from '../session-cookie';
import { assertSameOrigin } from './same-origin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isStateChanging = (method: string): boolean => !SAFE_METHODS.has(method.toUpperCase());

/** An HTML form's body (url-encoded): what carries the CSRF token as a field, and what the dashboard's forms post. */
export const isFormBody = (c: Context): boolean => /^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '');

/** The CSRF token the request presents: the header, else a form-encoded body's field. */
async function presentedCsrfToken(c: Context): Promise<string | undefined> {
  const header = c.req.header(CSRF_HEADER);
  if (header !== undefined) return header;
  if (!isFormBody(c)) return undefined;
  // Read as text (Hono keeps it): the route reads the same body after this.
  return new URLSearchParams(await c.req.text()).get(CSRF_FORM_FIELD) ?? undefined;
}

export async function assertCsrfToken(c: Context, expected: string): Promise<void> {
  const presented = await presentedCsrfToken(c);
  if (presented === undefined || presented === '') {
    throw new ForbiddenError(
      "Missing CSRF token: state-changing dashboard requests must send the session's csrf_token in the X-CSRF-Token header (or as the csrf_token field of a form).",
      'forbidden',
      {
        hint: 'Read csrf_token from the sign-in answer or GET /dashboard/session and send it with every POST, PUT, PATCH and DELETE.',
      },
    );
  }
  if (!csrfTokenMatches(presented, expected)) {
    throw new ForbiddenError('The CSRF token does not match this dashboard session.', 'forbidden', {
      hint: 'Read csrf_token again from GET /dashboard/session (it changes with every sign-in).',
    });
  }
}

export interface RequireSessionOptions {
  /** State-changing requests are open to every role, viewers included (signing out only). */
  anyRole?: boolean;
}

export function requireSession(deps: SessionDeps, options: RequireSessionOptions = {}): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const active = await resolveSession(deps, sessionCookieToken(c));
    if (isStateChanging(c.req.method)) {
      assertSameOrigin(c);
      await assertCsrfToken(c, active.session.csrf_token);
      if (!options.anyRole) assertCan(active.user.role, 'change');
    }
    c.set('session', active);
    c.set('principal', active.principal);
    await next();
  };
}

/** After requireSession: 403 unless the signed-in user's role may `action` (whatever the method). */
export function requireRole(action: DashboardAction): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    assertCan(c.get('session').user.role, action);
    await next();
  };
}
