/**
 * Teams and roles (docs/dashboard.md): the role table (role x action), the member-change rule (members
 * need an owner or admin, owners need an owner), and the session middleware refusing every change of a
 * viewer (after the origin and CSRF checks; signing out stays open to every role).
 */
import type { Hono } from 'hono';
import {
  assertMayChangeMember,
  can,
  DASHBOARD_ACTIONS,
  DASHBOARD_ROLES,
  type DashboardAction,
  type DashboardRole,
} from '#shared/domain/dashboard/roles';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { ForbiddenError } from '#shared/domain/errors';
import { createFrame } from '#shared/doors/http/create-api';
import type { ApiEnv } from '#shared/doors/http/env';
import { requireRole, requireSession } from '#shared/doors/http/middleware/session';
import { startSession } from '#shared/usecases/dashboard/sessions';
import { account, FakeClock, FakeSessions, FakeUsers, T0 } from './fakes';

const Y = true;
const N = false;
// The whole table, written out: a change to it must change this test.
const TABLE: Record<DashboardRole, Record<DashboardAction, boolean>> = {
  owner: { view: Y, change: Y, account_settings: Y, billing: Y, manage_members: Y, manage_owners: Y },
  admin: { view: Y, change: Y, account_settings: Y, billing: Y, manage_members: Y, manage_owners: N },
  developer: { view: Y, change: Y, account_settings: N, billing: N, manage_members: N, manage_owners: N },
  viewer: { view: Y, change: N, account_settings: N, billing: N, manage_members: N, manage_owners: N },
};

describe('the role table', () => {
  const cases = DASHBOARD_ROLES.flatMap((role) => DASHBOARD_ACTIONS.map((action) => [role, action, TABLE[role][action]] as const));
  it.each(cases)('%s may %s: %s', (role, action, allowed) => {
    expect(can(role, action)).toBe(allowed);
  });
});

describe('member changes', () => {
  // [actor, the change, allowed]
  const cases: [DashboardRole, { target?: DashboardRole; role?: DashboardRole }, boolean][] = [
    ['owner', { role: 'owner' }, Y], // invite an owner
    ['owner', { target: 'owner', role: 'viewer' }, Y], // demote an owner (the store keeps the last one)
    ['owner', { target: 'owner' }, Y], // remove an owner
    ['admin', { role: 'admin' }, Y],
    ['admin', { role: 'viewer' }, Y],
    ['admin', { target: 'developer', role: 'admin' }, Y],
    ['admin', { target: 'viewer' }, Y],
    ['admin', { role: 'owner' }, N], // only owners make owners
    ['admin', { target: 'viewer', role: 'owner' }, N],
    ['admin', { target: 'owner', role: 'admin' }, N], // nor change them
    ['admin', { target: 'owner' }, N], // nor remove them
    ['developer', { role: 'viewer' }, N],
    ['developer', { target: 'viewer' }, N],
    ['viewer', { role: 'viewer' }, N],
    ['viewer', { target: 'viewer', role: 'developer' }, N],
  ];
  it.each(cases)('%s, %j: %s', (actor, change, allowed) => {
    if (allowed) expect(() => assertMayChangeMember(actor, change)).not.toThrow();
    else expect(() => assertMayChangeMember(actor, change)).toThrow(ForbiddenError);
  });

  it('the refusal says the role and who may', () => {
    try {
      assertMayChangeMember('developer', { role: 'viewer' });
      throw new Error('not refused');
    } catch (error) {
      expect(error).toMatchObject({
        status: 403,
        code: 'forbidden',
        message: expect.stringMatching(/\(developer\) cannot manage the account's members \(owners and admins can\)/),
      });
    }
    expect(() => assertMayChangeMember('admin', { target: 'owner' })).toThrow(
      /\(admin\) cannot make, change or remove owners \(only owners can\)/,
    );
  });
});

describe('session middleware: the role', () => {
  const HOST = 'dash.example.com';

  async function world(role: DashboardRole) {
    const user: DashboardUser = {
      id: 'usr_1',
      account_id: account.id,
      email: 'ada@acme.test',
      role,
      password_hash: 'x',
      created_at: new Date(T0).toISOString(),
      updated_at: new Date(T0).toISOString(),
    };
    const deps = { sessions: new FakeSessions(), dashboardUsers: new FakeUsers(), clock: new FakeClock() };
    deps.dashboardUsers.users.set(user.email, { ...user });
    const { token, session } = await startSession(deps, user);
    const app: Hono<ApiEnv> = createFrame();
    app.post('/sign-out', requireSession(deps, { anyRole: true }), (c) => c.json({ ok: true }));
    app.get('/billing', requireSession(deps), requireRole('billing'), (c) => c.json({ ok: true }));
    app.use('/thing', requireSession(deps));
    app.on(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], '/thing', (c) => c.json({ ok: true }));
    const call = (method: string, path = '/thing', headers: Record<string, string> = { 'x-csrf-token': session.csrf_token }) =>
      app.request(`https://${HOST}${path}`, { method, headers: { host: HOST, cookie: `svc_session=${token}`, ...headers } });
    return { call };
  }

  it.each(DASHBOARD_ROLES)('%s: GET passes; a change passes unless a viewer', async (role) => {
    const w = await world(role);
    expect((await w.call('GET')).status).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      expect({ method, status: (await w.call(method)).status }).toEqual({ method, status: role === 'viewer' ? 403 : 200 });
  });

  it('a viewer is told why: its role is read-only', async () => {
    const response = await (await world('viewer')).call('POST');
    expect(await response.json()).toMatchObject({
      error: { code: 'forbidden', message: 'Your dashboard role (viewer) is read-only: it cannot change anything in this account.' },
    });
  });

  it('the CSRF check comes first: a viewer without the token is refused for the token', async () => {
    const response = await (await world('viewer')).call('POST', '/thing', {});
    expect(((await response.json()) as any).error.message).toMatch(/Missing CSRF token/);
  });

  it('signing out is open to a viewer', async () => {
    expect((await (await world('viewer')).call('POST', '/sign-out')).status).toBe(200);
  });

  it('requireRole refuses what the role may not, whatever the method', async () => {
    expect((await (await world('developer')).call('GET', '/billing')).status).toBe(403);
    expect((await (await world('admin')).call('GET', '/billing')).status).toBe(200);
  });
});
