/**
 * Dashboard sessions (docs/dashboard.md, "Sign-in and sessions"): starting one for a signed-in user,
 * resolving the `svc_session` cookie's token to who is acting, and ending one. Nothing here knows about
 * HTTP: the middleware (shared/doors/http/middleware/session.ts) reads the cookie and checks CSRF.
 *
 * Resolving is two strongly consistent reads: the session (by the token's hash), then the user and the
 * account in one batch, so a removed user or account is refused at once. The session's last request is
 * written at most once per SESSION_TOUCH_INTERVAL_MS (session-policy.ts).
 */
import type { Account } from '../../domain/accounts/account';
import { ROLE_SCOPES } from '../../domain/dashboard/roles';
import { newSessionTimes, sessionEnded, touchedTimes } from '../../domain/dashboard/session-policy';
import { isTokenShaped, newCsrfToken, newSessionToken, SESSION_COOKIE, sessionTokenHash } from '../../domain/dashboard/session-token';
import type { DashboardUser } from '../../domain/dashboard/user';
import { UnauthorizedError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';
import type { SessionRepository, StoredSession } from '../../adapters/store/sessions';
import type { Principal } from '../access/principal';

export interface SessionDeps {
  sessions: Pick<SessionRepository, 'create' | 'get' | 'touch' | 'delete'>;
  dashboardUsers: Pick<DashboardUserRepository, 'getWithAccount'>;
  clock: Clock;
}

export interface ActiveSession {
  /** SHA-256 of the cookie's token: the session's key. */
  tokenHash: string;
  session: StoredSession;
  user: DashboardUser;
  account: Account;
  principal: Principal;
}

/**
 * A dashboard user acts account-wide (no tenant, any domain) with its role's scopes (ROLE_SCOPES: owners
 * and admins `full`, developers `mail:admin`, viewers `account:read`), so a key or credential it makes
 * stays within its role. What its role may not do is also refused at the door, before any use case runs
 * (shared/doors/http/middleware/session.ts, the role table shared/domain/dashboard/roles.ts), and members
 * by the team use cases (./team.ts).
 */
export function sessionPrincipal(account: Account, user: DashboardUser): Principal {
  return {
    account,
    credential: { kind: 'session', id: user.id, scopes: [...ROLE_SCOPES[user.role]], tenant: null, allowed_domains: null },
  };
}

/** A new session for `user`; answers the token (for the cookie, never stored) and the stored session. */
export async function startSession(
  deps: Pick<SessionDeps, 'sessions' | 'clock'>,
  user: DashboardUser,
): Promise<{ token: string; tokenHash: string; session: StoredSession }> {
  const token = newSessionToken();
  const tokenHash = sessionTokenHash(token);
  const session: StoredSession = {
    user_id: user.id,
    user_email: user.email,
    account_id: user.account_id,
    csrf_token: newCsrfToken(),
    ...newSessionTimes(deps.clock.now()),
  };
  await deps.sessions.create(tokenHash, session);
  return { token, tokenHash, session };
}

const SIGN_IN_AGAIN = 'Sign in to the dashboard again (POST /dashboard/sign-in).';

/** Who the cookie's token signs in, or 401: no token, an unknown or signed-out one, an expired session, a removed user. */
export async function resolveSession(deps: SessionDeps, token: string | undefined): Promise<ActiveSession> {
  if (token === undefined || token === '') {
    throw new UnauthorizedError(`Not signed in: this route takes the dashboard session cookie (${SESSION_COOKIE}). ${SIGN_IN_AGAIN}`);
  }
  if (!isTokenShaped(token)) throw new UnauthorizedError(`The dashboard session is not valid. ${SIGN_IN_AGAIN}`);
  const tokenHash = sessionTokenHash(token);
  let session = await deps.sessions.get(tokenHash);
  if (!session) throw new UnauthorizedError(`The dashboard session is not valid (signed out or expired). ${SIGN_IN_AGAIN}`);
  const now = deps.clock.now();
  const ended = sessionEnded(session, now);
  if (ended) {
    await deps.sessions.delete(tokenHash);
    throw new UnauthorizedError(
      `The dashboard session has expired (${ended === 'idle' ? 'no request for 12 hours' : '7 days after sign-in'}). ${SIGN_IN_AGAIN}`,
    );
  }
  const [{ user, account }, touched] = await Promise.all([
    deps.dashboardUsers.getWithAccount(session.user_email, session.account_id),
    refresh(deps, tokenHash, session, now),
  ]);
  if (!user || !account || user.id !== session.user_id || user.account_id !== account.id) {
    throw new UnauthorizedError(`The dashboard user of this session no longer exists. ${SIGN_IN_AGAIN}`);
  }
  if (touched) session = touched;
  return { tokenHash, session, user, account, principal: sessionPrincipal(account, user) };
}

/** The session with its new times when it was due a refresh (written), else null. */
async function refresh(deps: SessionDeps, tokenHash: string, session: StoredSession, now: Date): Promise<StoredSession | null> {
  const times = touchedTimes(session, now);
  if (!times) return null;
  if (!(await deps.sessions.touch(tokenHash, times))) throw new UnauthorizedError(`The dashboard session was signed out. ${SIGN_IN_AGAIN}`);
  return { ...session, ...times };
}

/** Signs out: the session is deleted (its cookie no longer works anywhere). */
export async function endSession(deps: Pick<SessionDeps, 'sessions'>, tokenHash: string): Promise<void> {
  await deps.sessions.delete(tokenHash);
}
