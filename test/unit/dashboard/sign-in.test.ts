/**
 * Signing in (shared/usecases/dashboard/sign-in.ts) over in-memory stores: the rate-limit decisions (10
 * attempts per email and 30 per IP per 15-minute window, every attempt counted, 429 with Retry-After),
 * one 401 for an unknown email and a wrong password, a session on success, a weak hash upgraded.
 */
import { hashPassword, scryptPasswords } from '#shared/domain/dashboard/password-hash';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { RateLimitedError } from '#shared/domain/errors';
import { RATE_LIMITS } from '#shared/domain/rate-limits';
import { INVALID_CREDENTIALS, signIn, signInSubjects } from '#shared/usecases/dashboard/sign-in';
import { createDashboardUser } from '#shared/usecases/dashboard/users';
import { account, FakeClock, FakeRateLimits, FakeSessions, FakeUsers, refusal } from './fakes';

const PASSWORD = 'correct horse battery staple';
// 10:00:00Z is a multiple of 15 minutes: the test starts at a window's first second.
const WINDOW_MS = 15 * 60 * 1000;
/**
 * Real scrypt with small parameters: these tests hash and check dozens of passwords, which at the
 * service's N = 2^15, r = 8, p = 3 took 16-24 s of CPU (test/unit/dashboard/password-hash.test.ts tests those).
 */
const PARAMS = { ln: 10, r: 8, p: 1 };

function world() {
  const clock = new FakeClock();
  const users = new FakeUsers();
  const deps = {
    dashboardUsers: users,
    sessions: new FakeSessions(),
    rateLimits: new FakeRateLimits(),
    passwords: scryptPasswords(PARAMS),
    clock,
    accounts: { get: async (id: string) => users.accounts.get(id) ?? null },
  };
  return { clock, users, deps };
}

describe('signIn', () => {
  it('signs in with the right password: a session for the user', async () => {
    const w = world();
    const user = await createDashboardUser(w.deps, { accountId: account.id, email: ' Ada@Acme.test ', password: PASSWORD });
    expect(user).toMatchObject({ email: 'ada@acme.test', role: 'owner', account_id: account.id, id: expect.stringMatching(/^usr_/) });
    const result = await signIn(w.deps, { email: 'ada@acme.test', password: PASSWORD }, { ip: '203.0.113.5' });
    expect(result.user.id).toBe(user.id);
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(w.deps.sessions.items.size).toBe(1);
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const w = world();
    await createDashboardUser(w.deps, { accountId: account.id, email: 'ada@acme.test', password: PASSWORD });
    const unknown = await refusal(signIn(w.deps, { email: 'nobody@acme.test', password: PASSWORD }, { ip: '203.0.113.5' }));
    const wrong = await refusal(signIn(w.deps, { email: 'ada@acme.test', password: 'wrong password!' }, { ip: '203.0.113.5' }));
    for (const error of [unknown, wrong])
      expect({ status: error.status, message: error.message }).toEqual({ status: 401, message: INVALID_CREDENTIALS });
    expect(w.deps.sessions.items.size).toBe(0);
  });

  it('refuses the 11th attempt for one email within 15 minutes (429, Retry-After to the window end), even with the right password; the next window admits again', async () => {
    const w = world();
    expect(RATE_LIMITS.signInPerEmail).toEqual({ limit: 10, windowSeconds: 900 });
    await createDashboardUser(w.deps, { accountId: account.id, email: 'ada@acme.test', password: PASSWORD });
    for (let i = 0; i < 10; i++) {
      w.clock.advance(1000);
      // Each from another address: the email's own limit decides.
      expect(
        (await refusal(signIn(w.deps, { email: 'ada@acme.test', password: 'wrong password!' }, { ip: `203.0.113.${i}` }))).status,
      ).toBe(401);
    }
    w.clock.advance(60_000);
    const limited = await refusal(signIn(w.deps, { email: 'ada@acme.test', password: PASSWORD }, { ip: '198.51.100.1' }));
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toMatchObject({
      status: 429,
      code: 'rate_limited',
      headers: { 'Retry-After': String(900 - 70) },
      details: { limit: 10, window_seconds: 900, retry_after: 830 },
    });
    expect(limited.message).toMatch(/at most 10 per 900 seconds for sign-ins with this email address/);
    // Another address is not affected; the next window admits this one again.
    await createDashboardUser(w.deps, { accountId: account.id, email: 'bob@acme.test', password: PASSWORD });
    await signIn(w.deps, { email: 'bob@acme.test', password: PASSWORD }, { ip: '198.51.100.1' });
    w.clock.ms = Date.parse('2026-11-23T10:00:00.000Z') + WINDOW_MS;
    await signIn(w.deps, { email: 'ada@acme.test', password: PASSWORD }, { ip: '198.51.100.1' });
  });

  it('counts unknown emails too (the limit tells nothing about whether an address has a user)', async () => {
    const w = world();
    for (let i = 0; i < 10; i++) await refusal(signIn(w.deps, { email: 'nobody@acme.test', password: 'x' }, { ip: `203.0.113.${i}` }));
    expect((await refusal(signIn(w.deps, { email: 'nobody@acme.test', password: 'x' }, { ip: '203.0.113.99' }))).status).toBe(429);
  });

  it('admits 30 attempts from one IP within 15 minutes, whatever the emails, even all at once; then refuses before counting the email', async () => {
    const w = world();
    expect(RATE_LIMITS.signInPerIp).toEqual({ limit: 30, windowSeconds: 900 });
    const parallel = await Promise.all(
      Array.from({ length: 36 }, (_, i) => refusal(signIn(w.deps, { email: `user${i}@acme.test`, password: 'x' }, { ip: '203.0.113.7' }))),
    );
    expect(parallel.filter((error) => error.status === 401)).toHaveLength(30);
    expect(parallel.filter((error) => error.status === 429)).toHaveLength(6);
    const limited = await refusal(signIn(w.deps, { email: 'fresh@acme.test', password: 'x' }, { ip: '203.0.113.7' }));
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(limited.message).toMatch(/for sign-ins from this IP address/);
    const emailKey = `${signInSubjects('fresh@acme.test', '203.0.113.7').email}#signInPerEmail`;
    expect([...w.deps.rateLimits.counts.keys()].some((key) => key.startsWith(emailKey))).toBe(false);
    // Another IP is not affected.
    expect((await refusal(signIn(w.deps, { email: 'fresh@acme.test', password: 'x' }, { ip: '203.0.113.8' }))).status).toBe(401);
  });

  it('upgrades a hash made with weaker parameters at the next successful sign-in', async () => {
    const w = world();
    const weak: DashboardUser = {
      id: 'usr_1',
      account_id: account.id,
      email: 'old@acme.test',
      role: 'owner',
      password_hash: await hashPassword(PASSWORD, { ln: 8, r: 8, p: 1 }),
      created_at: 'x',
      updated_at: 'x',
    };
    await w.users.create(weak);
    await signIn(w.deps, { email: 'old@acme.test', password: PASSWORD }, { ip: '203.0.113.5' });
    const stored = (await w.users.getByEmail('old@acme.test'))!;
    expect(stored.password_hash).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    await signIn(w.deps, { email: 'old@acme.test', password: PASSWORD }, { ip: '203.0.113.5' });
  });
});

describe('createDashboardUser', () => {
  it('refuses a short password, a bad email, an unknown account and a second user with the email', async () => {
    const w = world();
    expect(await refusal(createDashboardUser(w.deps, { accountId: account.id, email: 'ada@acme.test', password: 'short' }))).toMatchObject({
      status: 400,
      details: { fields: [{ field: 'password' }] },
    });
    expect(await refusal(createDashboardUser(w.deps, { accountId: account.id, email: 'not an email', password: PASSWORD }))).toMatchObject({
      status: 400,
      details: { fields: [{ field: 'email' }] },
    });
    expect(await refusal(createDashboardUser(w.deps, { accountId: 'acc_nope', email: 'ada@acme.test', password: PASSWORD }))).toMatchObject(
      { status: 404 },
    );
    await createDashboardUser(w.deps, { accountId: account.id, email: 'ada@acme.test', password: PASSWORD });
    expect(await refusal(createDashboardUser(w.deps, { accountId: account.id, email: 'ADA@acme.test', password: PASSWORD }))).toMatchObject(
      { status: 409 },
    );
  });
});
