/**
 * CSRF protection of the dashboard: the same-origin rule (Origin, Sec-Fetch-Site), the token comparison,
 * and the session middleware (shared/doors/http/middleware/session.ts) on a small app: safe methods need only
 * the cookie; POST/PUT/PATCH/DELETE need the session's token (header or form field) and no foreign origin.
 */
import type { Hono } from 'hono';
import { crossOriginReason } from '#shared/domain/dashboard/same-origin';
import { csrfTokenMatches } from '#shared/domain/dashboard/session-token';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { requireSession } from '#shared/doors/http/middleware/session';
import { startSession } from '#shared/usecases/dashboard/sessions';
import { account, FakeClock, FakeSessions, FakeUsers, T0 } from './fakes';

describe('crossOriginReason', () => {
  const host = 'dash.example.com';
  it('lets through requests without Origin or Sec-Fetch-Site (curl), and same-origin ones', () => {
    expect(crossOriginReason({ origin: undefined, secFetchSite: undefined, host })).toBeNull();
    expect(crossOriginReason({ origin: 'https://dash.example.com', secFetchSite: 'same-origin', host })).toBeNull();
    expect(crossOriginReason({ origin: 'HTTPS://Dash.Example.com', secFetchSite: undefined, host: 'dash.example.com' })).toBeNull();
    expect(crossOriginReason({ origin: 'http://127.0.0.1:3000', secFetchSite: undefined, host: '127.0.0.1:3000' })).toBeNull();
  });

  it('refuses another origin, another port, a sibling subdomain, Origin null and cross-site Fetch Metadata', () => {
    expect(crossOriginReason({ origin: 'https://evil.example', secFetchSite: undefined, host })).toMatch(
      /Origin https:\/\/evil.example is not the dashboard's/,
    );
    expect(crossOriginReason({ origin: 'http://127.0.0.1:3001', secFetchSite: undefined, host: '127.0.0.1:3000' })).not.toBeNull();
    expect(crossOriginReason({ origin: 'https://blog.example.com', secFetchSite: undefined, host })).not.toBeNull();
    expect(crossOriginReason({ origin: 'null', secFetchSite: undefined, host })).not.toBeNull();
    expect(crossOriginReason({ origin: undefined, secFetchSite: 'cross-site', host })).toMatch(/Sec-Fetch-Site is "cross-site"/);
    expect(crossOriginReason({ origin: undefined, secFetchSite: 'same-site', host })).not.toBeNull();
    expect(crossOriginReason({ origin: 'https://dash.example.com', secFetchSite: undefined, host: undefined })).not.toBeNull();
  });
});

describe('csrfTokenMatches', () => {
  it('matches the exact token only', () => {
    const token = 'a'.repeat(43);
    expect(csrfTokenMatches(token, token)).toBe(true);
    expect(csrfTokenMatches(`${token}a`, token)).toBe(false);
    expect(csrfTokenMatches('b'.repeat(43), token)).toBe(false);
    expect(csrfTokenMatches(undefined, token)).toBe(false);
    expect(csrfTokenMatches('', token)).toBe(false);
  });
});

describe('session middleware: CSRF on state-changing requests', () => {
  const HOST = 'dash.example.com';
  const user: DashboardUser = {
    id: 'usr_1',
    account_id: account.id,
    email: 'ada@acme.test',
    role: 'owner',
    password_hash: 'x',
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
  };

  async function world() {
    const deps = { sessions: new FakeSessions(), dashboardUsers: new FakeUsers(), clock: new FakeClock() };
    deps.dashboardUsers.users.set(user.email, { ...user });
    const { token, session } = await startSession(deps, user);
    const app: Hono<ApiEnv> = createFrame();
    app.use('*', requireSession(deps));
    app.get('/thing', (c) => c.json({ who: c.get('principal').credential }));
    app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/thing', async (c) => c.json({ body: await c.req.text() }));
    const call = (method: string, headers: Record<string, string> = {}, body?: string) =>
      app.request(`https://${HOST}/thing`, { method, headers: { host: HOST, cookie: `svc_session=${token}`, ...headers }, body });
    return { call, csrf: session.csrf_token };
  }

  it('GET needs only the cookie', async () => {
    const w = await world();
    const response = await w.call('GET');
    expect(response.status).toBe(200);
    expect(((await response.json()) as any).who).toMatchObject({ kind: 'session', id: 'usr_1', scopes: ['full'] });
  });

  it('POST, PUT, PATCH and DELETE without the token: 403 forbidden with a clear message', async () => {
    const w = await world();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await w.call(method, { 'content-type': 'application/json' }, '{}');
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        error: { code: 'forbidden', message: expect.stringMatching(/Missing CSRF token.*X-CSRF-Token/) },
      });
    }
  });

  it('a wrong token: 403; the right one in X-CSRF-Token: through', async () => {
    const w = await world();
    const wrong = await w.call('POST', { 'x-csrf-token': 'b'.repeat(43) }, '{}');
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as any).error.message).toMatch(/does not match/);
    const right = await w.call('POST', { 'x-csrf-token': w.csrf, 'content-type': 'application/json' }, '{"a":1}');
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ body: '{"a":1}' });
  });

  it('an HTML form may send it as the csrf_token field; the route still reads the whole body', async () => {
    const w = await world();
    const body = `name=x&csrf_token=${encodeURIComponent(w.csrf)}`;
    const response = await w.call('POST', { 'content-type': 'application/x-www-form-urlencoded' }, body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body });
    expect((await w.call('POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'csrf_token=nope')).status).toBe(403);
  });

  it('a foreign Origin or cross-site Fetch Metadata is refused even with the right token', async () => {
    const w = await world();
    const foreign = await w.call('POST', { 'x-csrf-token': w.csrf, origin: 'https://evil.example' }, '{}');
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as any).error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Origin/) });
    expect((await w.call('DELETE', { 'x-csrf-token': w.csrf, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(
      (await w.call('POST', { 'x-csrf-token': w.csrf, origin: `https://${HOST}`, 'sec-fetch-site': 'same-origin' }, '{}')).status,
    ).toBe(200);
  });

  it('without a session the answer is 401 (before any CSRF check)', async () => {
    const w = await world();
    const response = await w.call('POST', { cookie: '' }, '{}');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: expect.stringMatching(/Not signed in/) } });
  });
});
