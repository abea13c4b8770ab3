/**
 * The dashboard session cookie (docs/dashboard.md): `svc_session=<token>; Path=/; HttpOnly; Secure;
 * SameSite=Lax; Max-Age=<seconds to the absolute expiry>`.
 *
 * - HttpOnly: page scripts never see the token (an injected script cannot carry it away);
 * - Secure: sent over HTTPS only. Browsers treat http://localhost and http://127.0.0.1 as secure
 *   contexts (Chrome, Firefox), so the local cloud's plain-HTTP dashboard works with it too;
 * - SameSite=Lax: not sent on cross-site subrequests and POSTs (a first CSRF barrier), still sent when a
 *   link from elsewhere opens the dashboard (a top-level GET);
 * - Max-Age: the session's absolute expiry (the idle expiry is enforced by the server).
 */
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../domain/dashboard/session-token';

const ATTRIBUTES = { path: '/', httpOnly: true, secure: true, sameSite: 'Lax' } as const;

export function sessionCookieToken(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/** Set when the session starts: Max-Age is the session's whole absolute lifetime. */
export function setSessionCookie(c: Context, token: string, session: { created_at: string; expires_at: string }): void {
  setCookie(c, SESSION_COOKIE, token, {
    ...ATTRIBUTES,
    maxAge: Math.max(0, Math.floor((Date.parse(session.expires_at) - Date.parse(session.created_at)) / 1000)),
  });
}

export function clearSessionCookie(c: Context): void {
  setCookie(c, SESSION_COOKIE, '', { ...ATTRIBUTES, maxAge: 0 });
}
