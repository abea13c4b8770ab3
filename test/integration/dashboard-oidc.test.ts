/**
 * Sign-in with OpenID Connect (docs/dashboard.md, "Sign-in with OpenID Connect") against the local cloud and
 * its local OpenID provider (docs/local-cloud/oidc.md; the shared stack runs with LOCAL_OIDC=1): the button,
 * the whole redirect dance with fetch (the provider's development login form: the login is the email), the
 * session it starts, the refusals (an address no member has, an unverified email, a replayed or forged
 * state, the person cancelling at the provider), the audit records, and a viewer still read-only.
 */
import { createHash } from 'node:crypto';
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

const CALLBACK = '/dashboard/sign-in/oidc/callback';

/** The value a response's Set-Cookie gives `name` (undefined: none). */
function cookieOf(response: DashboardResponse, name: string): string | undefined {
  const line = response.setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.slice(name.length + 1).split(';')[0]!) : undefined;
}

/** A browser's cookies at the provider. */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
}

interface Dance {
  /** Where the provider sent the browser back (the dashboard's callback with code, state and iss). */
  callback: URL;
  /** The flow's cookie the start set (svc_oidc). */
  flowCookie: string;
  from: string;
  start: DashboardResponse;
}

/**
 * Opens /dashboard/sign-in/oidc, follows the provider's pages as a browser would (its login form with
 * `login` as the login; `cancel`: its "Cancel" link instead) and stops where the provider redirects back to
 * the dashboard's callback.
 */
async function dance(login: string, options: { next?: string; cancel?: boolean } = {}): Promise<Dance> {
  const from = randomLoopback();
  const start = await dashboardRequest(
    'GET',
    `/dashboard/sign-in/oidc${options.next ? `?${new URLSearchParams({ next: options.next })}` : ''}`,
    { from },
  );
  expect(start.status).toBe(302);
  const flowCookie = cookieOf(start, 'svc_oidc');
  expect(flowCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const jar = new Jar();
  let url = new URL(String(start.headers.location));
  for (let step = 0; step < 10; step++) {
    if (url.href.startsWith(`${stack().apiUrl}${CALLBACK}`)) return { callback: url, flowCookie: flowCookie!, from, start };
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.keep(response);
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    const page = await response.text();
    expect({ status: response.status, form: page.includes('<form') }).toEqual({ status: 200, form: true });
    if (options.cancel) {
      url = new URL(/href="([^"]*\/abort)"/.exec(page)![1]!, url);
      continue;
    }
    const action = new URL(/action="([^"]+)"/.exec(page)![1]!, url);
    const submitted = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password: the local provider checks none' }),
    });
    jar.keep(submitted);
    expect(submitted.status).toBe(303);
    url = new URL(submitted.headers.get('location')!, action);
  }
  throw new Error(`the provider never sent the browser back to the dashboard (last: ${url.href})`);
}

/** The browser arriving at the callback with its flow cookie. */
function arrive(callback: URL, flowCookie: string | undefined, from = randomLoopback()): Promise<DashboardResponse> {
  return dashboardRequest('GET', `${callback.pathname}${callback.search}`, {
    from,
    headers: flowCookie ? { cookie: `svc_oidc=${flowCookie}` } : {},
  });
}

const emailHash = (email: string) => createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32);

async function auditRecords(account: TestAccount, action: string) {
  const response = await api('GET', `/audit-log?action=${action}&limit=100`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.audit_records as {
    action: string;
    resource_ids: Record<string, string>;
    actor: Record<string, unknown>;
    status: number | null;
  }[];
}

let account: TestAccount;

beforeAll(async () => {
  account = await newAccount();
});

describe('sign-in with OpenID Connect', () => {
  it('the sign-in page offers the configured provider beside the password form', async () => {
    const response = await dashboardRequest('GET', '/dashboard/sign-in?next=%2Fdashboard%2Fwebhooks');
    expect(response.status).toBe(200);
    expect(response.text).toContain('href="/dashboard/sign-in/oidc?next=');
    expect(response.text).toContain('Sign in with the local OpenID provider');
    expect(response.text).toContain('name="password"');
  });

  it('signs an existing member in (the address matched case-insensitively): the same session cookie, /dashboard/session, next, and signIn audited with method oidc', async () => {
    const { user, email } = await newDashboardUser(account);
    const { callback, flowCookie, from, start } = await dance(email.toUpperCase(), { next: '/dashboard/webhooks' });
    // The flow's cookie: HttpOnly, this path only, 10 minutes.
    expect(start.setCookies.find((line) => line.startsWith('svc_oidc='))).toMatch(
      /Max-Age=600; Path=\/dashboard\/sign-in\/oidc; HttpOnly; Secure; SameSite=Lax/,
    );
    // PKCE S256, state and nonce went to the provider.
    const authorization = new URL(String(start.headers.location));
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorization.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${stack().apiUrl}${CALLBACK}`);

    const arrived = await arrive(callback, flowCookie, from);
    expect(arrived.status).toBe(303);
    expect(arrived.headers.location).toBe('/dashboard/webhooks');
    const token = sessionTokenOf(arrived);
    expect(arrived.setCookies.find((line) => line.startsWith('svc_session='))).toMatch(
      /Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );
    // The flow's cookie is cleared.
    expect(arrived.setCookies.find((line) => line.startsWith('svc_oidc='))).toMatch(/Max-Age=0/);

    const session = await dashboardRequest('GET', '/dashboard/session', { cookie: token });
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ id: user.id, email, role: 'owner' });
    const page = await dashboardRequest('GET', '/dashboard/webhooks', { cookie: token });
    expect(page.status).toBe(200);

    const records = await auditRecords(account, 'signIn');
    expect(records.filter((record) => record.resource_ids.user === user.id)).toEqual([
      expect.objectContaining({
        action: 'signIn',
        resource_ids: { user: user.id, method: 'oidc' },
        actor: expect.objectContaining({ type: 'user', id: user.id, email }),
        status: 200,
      }),
    ]);

    // The same callback again (replayed, even with its cookie): the flow was used; no session.
    const replayed = await arrive(callback, flowCookie, from);
    expect(replayed.status).toBe(400);
    expect(replayed.text).toContain('is not under way in this browser');
    expect(sessionTokenOf(replayed)).toBeUndefined();
  });

  it('refuses an address no member has with a clear page and no session; signInFailed recorded with its hash only', async () => {
    const email = uniqueEmail('stranger');
    const { callback, flowCookie, from } = await dance(email);
    const arrived = await arrive(callback, flowCookie, from);
    expect(arrived.status).toBe(403);
    expect(arrived.headers['content-type']).toContain('text/html');
    expect(arrived.text).toContain(`${email} is not a member of any dashboard account here`);
    expect(arrived.text).toContain('action="/dashboard/sign-in"');
    expect(sessionTokenOf(arrived)).toBeUndefined();
    // Never a user: the password sign-in still knows no such address.
    expect(await stack().services.dashboardUsers.getByEmail(email)).toBeNull();
    const page = await stack().services.auditLog.list('deployment', { action: 'signInFailed' }, { limit: 100 }, Date.now());
    expect(page.items.filter((record) => record.actor.type === 'user' && record.actor.email_hash === emailHash(email))).toEqual([
      expect.objectContaining({
        action: 'signInFailed',
        resource_ids: { method: 'oidc' },
        status: 403,
        actor: expect.objectContaining({ id: null, email: null }),
      }),
    ]);
  });

  it("refuses an email the provider has not verified, even a member's: 403, no session, signInFailed in the member's account", async () => {
    const { user, email } = await newDashboardUser(account);
    const { callback, flowCookie, from } = await dance(`unverified:${email}`);
    const arrived = await arrive(callback, flowCookie, from);
    expect(arrived.status).toBe(403);
    expect(arrived.text).toContain(`has not verified the email address ${email}`);
    expect(sessionTokenOf(arrived)).toBeUndefined();
    const records = await auditRecords(account, 'signInFailed');
    expect(records.filter((record) => record.resource_ids.user === user.id)).toEqual([
      expect.objectContaining({
        resource_ids: { user: user.id, method: 'oidc' },
        status: 403,
        actor: expect.objectContaining({ id: user.id }),
      }),
    ]);
  });

  it("refuses a forged state, a callback without the flow's cookie, and a flow started in another browser; the flow is spent either way", async () => {
    const { email } = await newDashboardUser(account);
    const first = await dance(email);
    const forged = new URL(first.callback);
    forged.searchParams.set('state', 'forged-state-of-another-sign-in-000000000000');
    const refused = await arrive(forged, first.flowCookie, first.from);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('its state differs');
    expect(sessionTokenOf(refused)).toBeUndefined();
    // The genuine answer after that: the flow is gone.
    const late = await arrive(first.callback, first.flowCookie, first.from);
    expect(late.status).toBe(400);
    expect(sessionTokenOf(late)).toBeUndefined();

    // Someone else's callback (login CSRF: an attacker's code sent to a victim's browser): no cookie, or another flow's.
    const attacker = await dance(email);
    const noCookie = await arrive(attacker.callback, undefined);
    expect(noCookie.status).toBe(400);
    const victim = await dashboardRequest('GET', '/dashboard/sign-in/oidc');
    const otherFlow = await arrive(attacker.callback, cookieOf(victim, 'svc_oidc'));
    expect(otherFlow.status).toBe(400);
    expect(sessionTokenOf(otherFlow)).toBeUndefined();
  });

  it("the person cancelling at the provider: 401 with the provider's error, no session", async () => {
    const { email } = await newDashboardUser(account);
    const { callback, flowCookie, from } = await dance(email, { cancel: true });
    expect(callback.searchParams.get('error')).toBe('access_denied');
    const arrived = await arrive(callback, flowCookie, from);
    expect(arrived.status).toBe(401);
    expect(arrived.text).toContain('access_denied');
    expect(sessionTokenOf(arrived)).toBeUndefined();
  });

  it('a viewer signed in with OpenID Connect is still read-only', async () => {
    const owner = await newDashboardUser(account);
    const signedIn = await signIn(owner.email);
    const email = uniqueEmail('viewer');
    const invited = await dashboardRequest('POST', '/dashboard/team/invitations', {
      cookie: signedIn.cookie,
      csrf: signedIn.csrf,
      body: { email, role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.link).searchParams.get('token');
    const accepted = await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } });
    expect(accepted.status).toBe(200);

    const { callback, flowCookie, from } = await dance(email);
    const arrived = await arrive(callback, flowCookie, from);
    expect(arrived.status).toBe(303);
    const cookie = sessionTokenOf(arrived)!;
    const session = await dashboardRequest('GET', '/dashboard/session', { cookie });
    expect(session.body.user).toMatchObject({ email, role: 'viewer' });
    const change = await dashboardRequest('POST', '/api/webhooks', {
      cookie,
      csrf: session.body.csrf_token,
      body: { url: 'https://example.com/hook' },
    });
    expect(change.status).toBe(403);
    expect(change.body.error.message).toContain('Your dashboard role (viewer) is read-only');
  });
});
