/**
 * The dashboard's session auth against the running local cloud (docs/dashboard.md): sign-in (cookie
 * attributes, JSON and form bodies), who am I, the spec's session doors /api/events and /api/webhooks
 * answering what /events and /webhooks answer, CSRF, Origin, cookie-less and API-key requests refused,
 * the dry run (sessions only), sign-out, expiry, the sign-in rate limit, and `admin user create`.
 */
import { spawn } from 'node:child_process';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { join, resolve } from 'node:path';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { sessionTokenHash } from '#shared/domain/dashboard/session-token';
import { keys } from '#shared/adapters/store/keys';
import { startSession } from '#shared/usecases/dashboard/sessions';
import {
  DASHBOARD_PASSWORD,
  dashboardRequest,
  newDashboardUser,
  randomLoopback,
  sessionTokenOf,
  signIn,
  type DashboardResponse,
} from './harness/dashboard';
import { api, newAccount, stack, uniqueEmail, type TestAccount } from './harness/stack';

const ROOT = resolve(__dirname, '..', '..');
const HOUR = 3_600_000;

let account: TestAccount;
let email: string;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' });
  ({ email } = await newDashboardUser(account));
  session = await signIn(email);
});

async function automation(body: Record<string, unknown>, activate: boolean): Promise<string> {
  const created = await api('POST', '/automations', { key: account.key, body });
  expect(created.status).toBe(201);
  const id = created.body.automation.id as string;
  if (activate) expect((await api('POST', `/automations/${id}`, { key: account.key, body: { action: 'activate' } })).status).toBe(200);
  return id;
}

describe('sign-in and the session', () => {
  it('signs in: the svc_session cookie is HttpOnly, Secure, SameSite=Lax, Path=/, for 7 days; the answer has the user and the CSRF token', async () => {
    const response = await dashboardRequest('POST', '/dashboard/sign-in', {
      body: { email: email.toUpperCase(), password: DASHBOARD_PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      user: {
        object: 'dashboard_user',
        id: expect.stringMatching(/^usr_/),
        account_id: account.id,
        email,
        role: 'owner',
        created_at: expect.any(String),
      },
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
      idle_expires_at: expect.any(String),
    });
    expect(JSON.stringify(response.body)).not.toContain('scrypt');
    expect(response.setCookies).toHaveLength(1);
    const cookie = response.setCookies[0]!;
    const attributes = cookie.split(';').map((part) => part.trim());
    expect(attributes[0]).toMatch(/^svc_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Lax', 'Path=/', 'Max-Age=604800']));
    expect(response.headers['cache-control']).toBe('no-store');
    // Only the token's hash is stored.
    const token = sessionTokenOf(response)!;
    const { services } = stack();
    const item = await services.sessions.get(sessionTokenHash(token));
    expect(item).toMatchObject({ account_id: account.id, user_email: email, csrf_token: response.body.csrf_token });
    const raw = await createAwsClients(services.config).dynamo.send(
      new GetCommand({ TableName: services.config.tableName, Key: keys.session(sessionTokenHash(token)) }),
    );
    expect(raw.Item).toBeDefined();
    expect(JSON.stringify(raw.Item)).not.toContain(token);
  });

  it('takes an HTML form too: the sign-in page\'s form is answered with a redirect to the dashboard (docs/dashboard.md, "Pages")', async () => {
    const response = await dashboardRequest('POST', '/dashboard/sign-in', {
      rawBody: new URLSearchParams({ email, password: DASHBOARD_PASSWORD }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('/dashboard/emails');
    expect(sessionTokenOf(response)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('GET /dashboard/session says who is signed in and gives the CSRF token; without the cookie 401', async () => {
    const response = await dashboardRequest('GET', '/dashboard/session', { cookie: session.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { email, account_id: account.id, role: 'owner' }, csrf_token: session.csrf });
    const anonymous = await dashboardRequest('GET', '/dashboard/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { message: expect.stringMatching(/Not signed in/) } });
  });

  it('answers the same 401 for an unknown email and a wrong password; a sign-in from another origin is 403', async () => {
    const unknown = await dashboardRequest('POST', '/dashboard/sign-in', {
      body: { email: uniqueEmail('nobody'), password: DASHBOARD_PASSWORD },
    });
    const wrong = await dashboardRequest('POST', '/dashboard/sign-in', { body: { email, password: 'not the password' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.setCookies).toEqual([]);
    const foreign = await dashboardRequest('POST', '/dashboard/sign-in', {
      body: { email, password: DASHBOARD_PASSWORD },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('forbidden');
    expect((await dashboardRequest('POST', '/dashboard/sign-in', { body: { email: 'x' } })).status).toBe(400);
  });

  it('refuses the 11th sign-in attempt for one email within the window: 429 rate_limited with Retry-After', async () => {
    // Fixed 15-minute windows: eleven attempts that straddle two windows are tried again in the new one
    // (the windows never end within seconds of each other), where a wait for a fresh window used to
    // sleep up to a minute.
    const window = () => Math.floor(Date.now() / 900_000);
    let limited: DashboardResponse | undefined;
    for (let round = 0; round < 2 && !limited; round++) {
      const started = window();
      const target = (await newDashboardUser(account)).email;
      for (let i = 0; i < 10; i++) {
        expect(
          (await dashboardRequest('POST', '/dashboard/sign-in', { body: { email: target, password: `wrong password ${i}` } })).status,
        ).toBe(401);
      }
      const eleventh = await dashboardRequest('POST', '/dashboard/sign-in', { body: { email: target, password: DASHBOARD_PASSWORD } });
      if (window() === started) limited = eleventh;
    }
    if (!limited) throw new Error('two rounds of sign-ins straddled a window boundary');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/for sign-ins with this email address/),
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(limited.setCookies).toEqual([]);
  }, 120_000);
});

describe('/api/events and /api/webhooks with the session cookie', () => {
  it('POST /api/events with the cookie and CSRF token answers 202 as POST /events does for an API key', async () => {
    await automation(
      {
        name: 'Dashboard door',
        trigger: { event: 'dash.door' },
        steps: [{ key: 'c', type: 'condition', field: 'event.name', operator: 'exists' }],
      },
      true,
    );
    const viaSession = await dashboardRequest('POST', '/api/events', {
      cookie: session.cookie,
      csrf: session.csrf,
      body: { name: 'dash.door', user_id: 'u-session' },
    });
    const viaKey = await api('POST', '/events', { key: account.key, body: { name: 'dash.door', user_id: 'u-key' } });
    expect(viaKey.status).toBe(202);
    expect(viaSession.status).toBe(202);
    expect(Object.keys(viaSession.body).sort()).toEqual(Object.keys(viaKey.body).sort());
    expect(viaSession.body).toMatchObject({
      event: { name: 'dash.door', user_id: 'u-session', source: 'api', id: expect.stringMatching(/^ae_/) },
      matched_automations: 1,
      resumed_runs: 0,
      cancelled_runs: 0,
    });
    // The same validation as /events.
    const bad = await dashboardRequest('POST', '/api/events', { cookie: session.cookie, csrf: session.csrf, body: { user_id: 'u' } });
    const badKey = await api('POST', '/events', { key: account.key, body: { user_id: 'u' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(badKey.body);
  });

  it('refuses a state-changing request without the CSRF token or with a wrong one (403), from another origin (403), and without the cookie (401)', async () => {
    const body = { name: 'dash.door' };
    const missing = await dashboardRequest('POST', '/api/events', { cookie: session.cookie, body });
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/Missing CSRF token/) });
    expect((await dashboardRequest('POST', '/api/events', { cookie: session.cookie, csrf: 'x'.repeat(43), body })).status).toBe(403);
    const foreign = await dashboardRequest('POST', '/api/events', {
      cookie: session.cookie,
      csrf: session.csrf,
      body,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toMatch(/Origin https:\/\/evil.example/);
    expect(
      (
        await dashboardRequest('POST', '/api/webhooks', {
          cookie: session.cookie,
          csrf: session.csrf,
          body: { url: 'https://example.com/h' },
          headers: { 'sec-fetch-site': 'cross-site' },
        })
      ).status,
    ).toBe(403);
    const anonymous = await dashboardRequest('POST', '/api/events', { csrf: session.csrf, body });
    expect(anonymous.status).toBe(401);
    expect((await dashboardRequest('GET', '/api/webhooks')).status).toBe(401);
  });

  it('takes the session cookie only: an API key is not a credential on /api/*', async () => {
    const response = await dashboardRequest('GET', '/api/webhooks', { headers: { authorization: `Bearer ${account.key}` } });
    expect(response.status).toBe(401);
    expect(
      (await dashboardRequest('POST', '/api/events', { headers: { authorization: `Bearer ${account.key}` }, body: { name: 'dash.door' } }))
        .status,
    ).toBe(401);
  });

  it('POST /api/webhooks creates a webhook (the secret shown once) that /webhooks lists; read, change and delete through /api/webhooks/{id}', async () => {
    const url = `${stack().info.webhook_inbox_url}dash-${Date.now()}`;
    const created = await dashboardRequest('POST', '/api/webhooks', {
      cookie: session.cookie,
      csrf: session.csrf,
      body: { url, events: ['email.delivered'] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      webhook: { id: expect.stringMatching(/^wh_/), url, events: ['email.delivered'], enabled: true },
      secret: expect.any(String),
    });
    const id = created.body.webhook.id as string;
    const viaKey = await api('GET', `/webhooks/${id}`, { key: account.key });
    expect(viaKey.status).toBe(200);
    const viaSession = await dashboardRequest('GET', `/api/webhooks/${id}`, { cookie: session.cookie });
    expect(viaSession.status).toBe(200);
    expect(viaSession.body).toEqual(viaKey.body);
    const listed = await dashboardRequest('GET', '/api/webhooks', { cookie: session.cookie });
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    const patched = await dashboardRequest('PATCH', `/api/webhooks/${id}`, {
      cookie: session.cookie,
      csrf: session.csrf,
      body: { enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, enabled: false });
    expect((await dashboardRequest('GET', `/api/webhooks/${id}/deliveries`, { cookie: session.cookie })).body).toEqual({
      deliveries: [],
      has_more: false,
      next_cursor: null,
    });
    expect((await dashboardRequest('DELETE', `/api/webhooks/${id}`, { cookie: session.cookie })).status).toBe(403);
    expect((await dashboardRequest('DELETE', `/api/webhooks/${id}`, { cookie: session.cookie, csrf: session.csrf })).body).toEqual({
      ok: true,
    });
    expect((await api('GET', `/webhooks/${id}`, { key: account.key })).status).toBe(404);
    // Another account's webhook is not found through a session either.
    const other = await newAccount();
    const foreign = await api('POST', '/webhooks', { key: other.key, body: { url } });
    expect((await dashboardRequest('GET', `/api/webhooks/${foreign.body.webhook.id}`, { cookie: session.cookie })).status).toBe(404);
    expect((await dashboardRequest('GET', '/api/nothing-here', { cookie: session.cookie })).status).toBe(404);
  });

  it('dry-runs a draft automation from a session (200, the trace, nothing written); API keys still get 403 on /events', async () => {
    const sandbox = stack().services.sandboxDomain;
    const id = await automation(
      {
        name: 'Welcome (draft)',
        trigger: { event: 'dash.signup' },
        steps: [
          { key: 'is-free', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'free' },
          { key: 'wait', type: 'delay', duration: '2 days' },
          {
            key: 'welcome',
            type: 'send_email',
            from: `hello@${sandbox}`,
            subject: 'Welcome, {{event.data.first_name}}!',
            text: 'Hi {{event.data.first_name}}',
          },
        ],
      },
      false,
    );
    const event = {
      name: 'dash.signup',
      email: 'ada@example.com',
      data: { plan: 'free', first_name: 'Ada' },
      dry_run: true,
      automation_id: id,
    };
    const dry = await dashboardRequest('POST', '/api/events', { cookie: session.cookie, csrf: session.csrf, body: event });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dry_run: true,
      automation: { id, name: 'Welcome (draft)', status: 'draft' },
      event: { name: 'dash.signup', email: 'ada@example.com' },
      matches_trigger: true,
      status: 'completed',
      error: null,
      steps: [
        { key: 'is-free', type: 'condition', status: 'completed', output: { result: true } },
        { key: 'wait', type: 'delay', status: 'skipped', output: { would_wait_ms: 172_800_000 } },
        {
          key: 'welcome',
          type: 'send_email',
          status: 'stubbed',
          output: { to: ['ada@example.com'], subject: 'Welcome, Ada!', text: 'Hi Ada', missing: [] },
        },
      ],
    });
    expect((await api('GET', `/automations/${id}/runs`, { key: account.key })).body.runs).toEqual([]);
    const viaKey = await api('POST', '/events', { key: account.key, body: event });
    expect(viaKey.status).toBe(403);
    expect(viaKey.body.error).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/dashboard session/) });
    const unknown = await dashboardRequest('POST', '/api/events', {
      cookie: session.cookie,
      csrf: session.csrf,
      body: { ...event, automation_id: 'auto_01JD8Z6X4Q2T9V3N5M7K1H0G8F' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('sign-out and expiry', () => {
  it('signs out (with the CSRF token): the cookie is cleared and refused afterwards', async () => {
    const own = await signIn(email);
    expect((await dashboardRequest('POST', '/dashboard/sign-out', { cookie: own.cookie })).status).toBe(403);
    const out = await dashboardRequest('POST', '/dashboard/sign-out', { cookie: own.cookie, csrf: own.csrf });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ ok: true });
    expect(out.setCookies[0]).toMatch(/^svc_session=; Max-Age=0; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect((await dashboardRequest('GET', '/dashboard/session', { cookie: own.cookie })).status).toBe(401);
    expect(
      (await dashboardRequest('POST', '/api/events', { cookie: own.cookie, csrf: own.csrf, body: { name: 'dash.door' } })).status,
    ).toBe(401);
    // The other session of the same user is untouched.
    expect((await dashboardRequest('GET', '/dashboard/session', { cookie: session.cookie })).status).toBe(200);
  });

  it('refuses a session idle for 12 hours and one signed in 7 days ago', async () => {
    const { services } = stack();
    const user = (await services.dashboardUsers.getByEmail(email))!;
    const idle = await startSession({ sessions: services.sessions, clock: { now: () => new Date(Date.now() - 12 * HOUR - 60_000) } }, user);
    const old = await startSession(
      { sessions: services.sessions, clock: { now: () => new Date(Date.now() - 7 * 24 * HOUR - 60_000) } },
      user,
    );
    const idleAnswer = await dashboardRequest('GET', '/dashboard/session', { cookie: idle.token });
    expect(idleAnswer.status).toBe(401);
    expect(idleAnswer.body.error.message).toMatch(/expired \(no request for 12 hours\)/);
    const oldAnswer = await dashboardRequest('GET', '/api/webhooks', { cookie: old.token });
    expect(oldAnswer.status).toBe(401);
    expect(oldAnswer.body.error.message).toMatch(/expired/);
    // Expired sessions are deleted when seen.
    expect(await services.sessions.get(idle.tokenHash)).toBeNull();
  });

  it('a new sign-in from the same browser ends its previous session', async () => {
    const first = await signIn(email);
    const second = await dashboardRequest('POST', '/dashboard/sign-in', {
      cookie: first.cookie,
      body: { email, password: DASHBOARD_PASSWORD },
    });
    expect(second.status).toBe(200);
    expect((await dashboardRequest('GET', '/dashboard/session', { cookie: first.cookie })).status).toBe(401);
    expect((await dashboardRequest('GET', '/dashboard/session', { cookie: sessionTokenOf(second)! })).status).toBe(200);
  });
});

describe('admin user create', () => {
  // As an operator runs it: without the suite's cheap password hash (PASSWORD_HASH_COST, set by the global
  // setup for the stacks and the test workers), so its users are hashed with the real parameters.
  const { PASSWORD_HASH_COST: _testCost, ...operatorEnv } = process.env;
  function admin(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolveRun, reject) => {
      const child = spawn(process.execPath, [join(ROOT, 'localstack', 'admin.cjs'), ...args], {
        cwd: ROOT,
        env: { ...operatorEnv, DATA_DIR: process.env.TEST_STACK_DATA_DIR },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(stdin ?? '');
    });
  }

  it('creates a user with a generated password printed once, which signs in', async () => {
    const address = uniqueEmail('cli-user');
    const result = await admin(['user', 'create', '--account', account.id, '--email', address]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    expect(created).toEqual({
      user_id: expect.stringMatching(/^usr_/),
      account_id: account.id,
      email: address,
      role: 'owner',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    const signedIn = await signIn(address, created.password);
    expect(signedIn.response.body.user.id).toBe(created.user_id);
    // The real parameters (the suite's stacks hash with PASSWORD_HASH_COST's, and check this one with its own).
    const stored = await stack().services.dashboardUsers.getByEmail(address);
    expect(stored!.password_hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/);
    expect(JSON.stringify(stored)).not.toContain(created.password);
  }, 60_000);

  it('reads the password from stdin with --password-stdin; refuses a short one, a taken email and an unknown account', async () => {
    const address = uniqueEmail('cli-stdin');
    const piped = await admin(
      ['user', 'create', '--account', account.id, '--email', address, '--password-stdin'],
      'my chosen passphrase\n',
    );
    expect(piped.code).toBe(0);
    const created = JSON.parse(piped.stdout);
    expect(created).toEqual({ user_id: expect.stringMatching(/^usr_/), account_id: account.id, email: address, role: 'owner' });
    await signIn(address, 'my chosen passphrase', randomLoopback());

    const short = await admin(
      ['user', 'create', '--account', account.id, '--email', uniqueEmail('cli-short'), '--password-stdin'],
      'too short\n',
    );
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 12 characters');
    const taken = await admin(['user', 'create', '--account', account.id, '--email', address.toUpperCase()]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
    const unknown = await admin(['user', 'create', '--account', 'acc_01ZZZZZZZZZZZZZZZZZZZZZZZZ', '--email', uniqueEmail('cli-nobody')]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');
    expect((await admin(['user', 'create', '--email', uniqueEmail()])).code).toBe(2);
  }, 90_000);
});
