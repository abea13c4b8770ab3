/**
 * Signing in to the dashboard (docs/dashboard.md, "Sign-in and sessions"): email and password in, a new
 * session out. In this order:
 *
 *   1. rate limits (RATE_LIMITS.signInPerIp, then signInPerEmail; fixed windows, conditional ADDs in
 *      shared/adapters/store/rate-limits.ts): every attempt counts, before the password is checked, so parallel
 *      guesses cannot overshoot; over either limit is 429 rate_limited with Retry-After;
 *   2. the user by email, and the password checked against its scrypt hash. An unknown email is checked
 *      against a dummy hash made with the same parameters, so both failures cost the same work and answer
 *      the same 401 (nothing tells whether an address has a user);
 *   3. a hash made with weaker parameters than today's is replaced (shared/domain/dashboard/password-hash.ts);
 *   4. a new session (./sessions.ts);
 *   5. the audit log (docs/audit-log.md): `signIn` in the user's account, or `signInFailed` (a wrong
 *      password: in the user's account, with its id; an unknown email: under the pseudo-account
 *      UNKNOWN_ACCOUNT_AUDIT, with the email's hash only). Never the password. Rate-limited attempts
 *      (429) are not recorded: they are refused before any check.
 */
import { createHash } from 'node:crypto';
import type { PasswordHasher } from '../../domain/dashboard/password-hash';
import type { SignInRequest } from '../../domain/dashboard/schemas';
import type { DashboardUser } from '../../domain/dashboard/user';
import { RateLimitedError, UnauthorizedError } from '../../domain/errors';
import { RATE_LIMITS, secondsUntilReset, type RateLimitName } from '../../domain/rate-limits';
import type { Clock } from '../../ports/clock';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { StoredSession } from '../../adapters/store/sessions';
import { startSession, type SessionDeps } from './sessions';
import type { AuditActor } from '../../domain/audit/audit-record';
import { recordAudit, type AuditDeps } from '../audit/record';

export interface SignInDeps {
  dashboardUsers: Pick<DashboardUserRepository, 'getByEmail' | 'replacePasswordHash'>;
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  sessions: SessionDeps['sessions'];
  passwords: PasswordHasher;
  clock: Clock;
  /** The audit log; without it (unit tests) nothing is recorded. */
  auditLog?: AuditDeps['auditLog'];
}

/** Where failed sign-ins of an email no user has are recorded: no account is theirs (docs/audit-log.md). */
export const UNKNOWN_ACCOUNT_AUDIT = 'deployment';

export interface SignInClient {
  /** The client's IP address (API Gateway's sourceIp); '' when unknown. */
  ip: string;
  /** The client's user agent and the request's id, for the audit log. */
  userAgent?: string | null;
  requestId?: string | null;
}

export const INVALID_CREDENTIALS = 'Invalid email or password.';

/** Hashed once per process and hasher, with its parameters: what an unknown email's password is checked against. */
const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();
function dummyPasswordHash(passwords: PasswordHasher): Promise<string> {
  let dummy = dummyHashes.get(passwords);
  if (!dummy) {
    dummy = passwords.hash('not a password of anyone: the unknown-email path does the same work');
    dummyHashes.set(passwords, dummy);
  }
  return dummy;
}

/** The sign-in limits' subjects: the address hashed (no addresses in keys), the IP as it is. */
export const signInSubjects = (email: string, ip: string) => ({
  email: `email:${createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32)}`,
  ip: `ip:${ip || 'unknown'}`,
});

/** Counts one attempt against a sign-in limit; over it: 429 with Retry-After. */
export async function countAttempt(
  deps: Pick<SignInDeps, 'rateLimits'>,
  subject: string,
  name: RateLimitName,
  what: string,
  nowMs: number,
): Promise<void> {
  const rule = RATE_LIMITS[name];
  const decision = await deps.rateLimits.hit(subject, name, rule, nowMs);
  if (!decision.allowed) throw new RateLimitedError(rule.limit, rule.windowSeconds, secondsUntilReset(rule, nowMs), what);
}

export async function signIn(
  deps: SignInDeps,
  request: SignInRequest,
  client: SignInClient,
): Promise<{ user: DashboardUser; token: string; session: StoredSession }> {
  const nowMs = deps.clock.now().getTime();
  const subjects = signInSubjects(request.email, client.ip);
  await countAttempt(deps, subjects.ip, 'signInPerIp', 'for sign-ins from this IP address', nowMs);
  await countAttempt(deps, subjects.email, 'signInPerEmail', 'for sign-ins with this email address', nowMs);

  const user = await deps.dashboardUsers.getByEmail(request.email);
  const valid = await deps.passwords.verify(request.password, user?.password_hash ?? (await dummyPasswordHash(deps.passwords)));
  if (!user || !valid) {
    await auditSignIn(deps, client, 'signInFailed', 401, user, subjects.email.slice('email:'.length));
    throw new UnauthorizedError(INVALID_CREDENTIALS);
  }

  if (deps.passwords.needsRehash(user.password_hash)) {
    const next = await deps.passwords.hash(request.password);
    if (await deps.dashboardUsers.replacePasswordHash(user.email, user.password_hash, next, deps.clock.now().toISOString()))
      user.password_hash = next;
  }
  const { token, session } = await startSession(deps, user);
  await auditSignIn(deps, client, 'signIn', 200, user, null);
  return { user, token, session };
}

/**
 * A sign-in's audit record (a failed write is logged, never the sign-in's failure: ../audit/record.ts);
 * `method` for sign-ins other than by password (`oidc`: ./oidc-sign-in.ts), in its resource_ids.
 */
export async function auditSignIn(
  deps: Pick<SignInDeps, 'auditLog' | 'clock'>,
  client: SignInClient,
  action: 'signIn' | 'signInFailed',
  status: number,
  user: DashboardUser | null,
  emailHash: string | null,
  method?: string,
): Promise<void> {
  if (!deps.auditLog) return;
  const actor: AuditActor = user
    ? { type: 'user', id: user.id, email: user.email, email_hash: null, role: user.role }
    : { type: 'user', id: null, email: null, email_hash: emailHash, role: null };
  await recordAudit(
    { auditLog: deps.auditLog, clock: deps.clock },
    {
      account_id: user?.account_id ?? UNKNOWN_ACCOUNT_AUDIT,
      tenant_id: null,
      action,
      resource_ids: { ...(user ? { user: user.id } : {}), ...(method ? { method } : {}) },
      actor,
      status,
      source_ip: client.ip || null,
      user_agent: client.userAgent ?? null,
      request_id: client.requestId ?? null,
    },
  );
}
