/**
 * Dashboard session expiry with an injected clock: the pure policy (shared/domain/dashboard/session-policy.ts)
 * and resolveSession over in-memory stores: idle expiry (12 h without a request), absolute expiry (7 days
 * however active), the last request written at most once per 5 minutes, sign-out, a removed user.
 */
import {
  newSessionTimes,
  sessionEnded,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  SESSION_TOUCH_INTERVAL_MS,
  touchedTimes,
} from '#shared/domain/dashboard/session-policy';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { UnauthorizedError } from '#shared/domain/errors';
import { endSession, resolveSession, startSession } from '#shared/usecases/dashboard/sessions';
import { account, FakeClock, FakeSessions, FakeUsers, refusal, T0 } from './fakes';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('session policy (pure)', () => {
  it('a new session expires 7 days after sign-in, and 12 hours after its last request', () => {
    const times = newSessionTimes(new Date(T0));
    expect(times).toEqual({
      created_at: new Date(T0).toISOString(),
      last_seen_at: new Date(T0).toISOString(),
      expires_at: new Date(T0 + 7 * 24 * HOUR).toISOString(),
      idle_expires_at: new Date(T0 + 12 * HOUR).toISOString(),
      ttl: (T0 + 12 * HOUR) / 1000,
    });
    expect(sessionEnded(times, new Date(T0 + 12 * HOUR - 1))).toBeNull();
    expect(sessionEnded(times, new Date(T0 + 12 * HOUR))).toBe('idle');
  });

  it('is touched at most once per 5 minutes; the idle expiry never passes the absolute one', () => {
    const times = newSessionTimes(new Date(T0));
    expect(touchedTimes(times, new Date(T0 + SESSION_TOUCH_INTERVAL_MS - 1))).toBeNull();
    const touched = touchedTimes(times, new Date(T0 + SESSION_TOUCH_INTERVAL_MS))!;
    expect(touched.idle_expires_at).toBe(new Date(T0 + SESSION_TOUCH_INTERVAL_MS + SESSION_IDLE_MS).toISOString());
    expect(touched.created_at).toBe(times.created_at);
    const late = touchedTimes(times, new Date(T0 + SESSION_ABSOLUTE_MS - HOUR))!;
    expect(late.idle_expires_at).toBe(late.expires_at);
    expect(sessionEnded(late, new Date(T0 + SESSION_ABSOLUTE_MS))).toBe('expired');
  });
});

describe('resolveSession', () => {
  const user: DashboardUser = {
    id: 'usr_1',
    account_id: account.id,
    email: 'ada@acme.test',
    role: 'owner',
    password_hash: 'x',
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
  };

  function world() {
    const clock = new FakeClock();
    const sessions = new FakeSessions();
    const users = new FakeUsers();
    users.users.set(user.email, { ...user });
    const deps = { sessions, dashboardUsers: users, clock };
    return { clock, sessions, users, deps };
  }

  const unauthorized = (promise: Promise<unknown>) => refusal(promise, UnauthorizedError);

  it('resolves the cookie token to the user, with the account-wide full-access session principal; only the hash is stored', async () => {
    const w = world();
    const { token, tokenHash } = await startSession(w.deps, user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect([...w.sessions.items.keys()]).toEqual([tokenHash]);
    expect(JSON.stringify([...w.sessions.items.values()])).not.toContain(token);
    const active = await resolveSession(w.deps, token);
    expect(active.user.id).toBe('usr_1');
    expect(active.principal).toEqual({
      account,
      credential: { kind: 'session', id: 'usr_1', scopes: ['full'], tenant: null, allowed_domains: null },
    });
    expect(active.session.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('expires after 12 hours without a request (and deletes the session)', async () => {
    const w = world();
    const { token } = await startSession(w.deps, user);
    w.clock.advance(12 * HOUR - 1);
    await resolveSession(w.deps, token);
    // That request kept it alive for another 12 hours.
    w.clock.advance(12 * HOUR - 1);
    await resolveSession(w.deps, token);
    w.clock.advance(12 * HOUR);
    expect((await unauthorized(resolveSession(w.deps, token))).message).toMatch(/expired \(no request for 12 hours\)/);
    expect(w.sessions.items.size).toBe(0);
  });

  it('expires 7 days after sign-in however active the user is', async () => {
    const w = world();
    const { token } = await startSession(w.deps, user);
    for (let at = HOUR; at < SESSION_ABSOLUTE_MS; at += HOUR) {
      w.clock.ms = T0 + at;
      await resolveSession(w.deps, token);
    }
    w.clock.ms = T0 + SESSION_ABSOLUTE_MS;
    expect((await unauthorized(resolveSession(w.deps, token))).message).toMatch(/expired \(7 days after sign-in\)/);
  });

  it('writes the last request at most once per 5 minutes', async () => {
    const w = world();
    const { token } = await startSession(w.deps, user);
    for (let i = 0; i < 60; i++) {
      w.clock.advance(10_000);
      await resolveSession(w.deps, token);
    }
    // 10 minutes of requests every 10 s: two writes.
    expect(w.sessions.touches).toBe(2);
    expect(w.sessions.items.values().next().value!.last_seen_at).toBe(new Date(T0 + 10 * MINUTE).toISOString());
  });

  it('refuses a missing, malformed, unknown or signed-out token, and a session whose user is gone or re-created', async () => {
    const w = world();
    const { token, tokenHash } = await startSession(w.deps, user);
    expect((await unauthorized(resolveSession(w.deps, undefined))).message).toMatch(/Not signed in/);
    expect((await unauthorized(resolveSession(w.deps, 'nope'))).status).toBe(401);
    expect((await unauthorized(resolveSession(w.deps, 'A'.repeat(43)))).message).toMatch(/not valid/);
    w.users.users.set(user.email, { ...user, id: 'usr_2' });
    expect((await unauthorized(resolveSession(w.deps, token))).message).toMatch(/no longer exists/);
    w.users.users.set(user.email, { ...user });
    await resolveSession(w.deps, token);
    await endSession(w.deps, tokenHash);
    expect((await unauthorized(resolveSession(w.deps, token))).message).toMatch(/signed out or expired/);
  });
});
