/**
 * No key, credential or session exceeds its maker (docs/api.md, "Creating within your reach";
 * docs/dashboard.md, "Teams and roles"; docs/automations.md, "Reach"), through every door against the
 * local cloud: POST /api-keys and POST /smtp-credentials from a limited key, the dashboard's API key form
 * from a developer, and an automation made by a limited key whose run is started by POST /events.
 */
import { DASHBOARD_PASSWORD, dashboardRequest, newDashboardUser, signIn, type DashboardResponse, type SignedIn } from './harness/dashboard';
import { verifiedDomain } from './harness/domains';
import { transport } from './harness/smtp';
import { api, newAccount, stack, uniqueEmail, waitFor, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

let account: TestAccount;
/** A domain of the account, verified: any unlimited key may send from it. */
let other: string;
/** A full key limited to the sandbox domain. */
let limited: string;

const sendFrom = (key: string, domain: string) =>
  api('POST', '/emails', { key, body: { from: `a@${domain}`, to: account.email, subject: 's', text: 't' } });
const newKey = async (key: string, body: Record<string, unknown>) => api('POST', '/api-keys', { key, body });

beforeAll(async () => {
  account = await newAccount({ plan: 'pro', paymentMethod: true });
  other = (await verifiedDomain(account)).name;
  const made = await newKey(account.key, { name: 'limited', scopes: ['full'], allowed_domains: [SANDBOX] });
  expect(made.status).toBe(201);
  limited = made.body.secret;
  // The premise: the limited key may not send from the other domain; the account's key may.
  expect((await sendFrom(limited, other)).body.error.code).toBe('domain_not_allowed');
  expect((await sendFrom(account.key, other)).status).toBe(200);
});

describe('POST /api-keys', () => {
  it('a limited key asking for a key by name alone gets one limited the same way, which cannot send from another domain', async () => {
    const made = await newKey(limited, { name: 'x' });
    expect(made.status).toBe(201);
    expect(made.body.api_key).toMatchObject({ scopes: ['full'], allowed_domains: [SANDBOX] });
    const send = await sendFrom(made.body.secret, other);
    expect(send.status).toBe(403);
    expect(send.body.error.code).toBe('domain_not_allowed');
    expect((await sendFrom(made.body.secret, SANDBOX)).status).toBe(200);
  });

  it('a limited key cannot ask for a domain outside its own (403 domain_not_allowed naming it)', async () => {
    const refused = await newKey(limited, { name: 'wider', allowed_domains: [SANDBOX, other] });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'domain_not_allowed',
      details: { field: 'allowed_domains', domains: [other], allowed_domains: [SANDBOX] },
    });
  });

  it('scopes: a key makes none its own do not cover (403 insufficient_scope naming them)', async () => {
    const mailAdmin = (await newKey(account.key, { name: 'mail admin', scopes: ['mail:admin'] })).body.secret;
    for (const scopes of [['full'], ['account:admin'], ['mail:admin', 'account:admin']]) {
      const refused = await newKey(mailAdmin, { name: 'up', scopes });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'insufficient_scope',
        details: { refused_scopes: scopes.filter((scope) => scope !== 'mail:admin') },
      });
    }
    const sender = await newKey(mailAdmin, { name: 'sender', scopes: ['emails:send'] });
    expect(sender.status).toBe(201);
    // Left out, a mail:admin key's key has mail:admin (its own), never full.
    expect((await newKey(mailAdmin, { name: 'same' })).body.api_key.scopes).toEqual(['mail:admin']);
    // An emails:send key cannot make keys at all (the route needs mail:admin).
    const fromSender = await newKey(sender.body.secret, { name: 'nope', scopes: ['emails:send'] });
    expect(fromSender.status).toBe(403);
    expect(fromSender.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scopes: ['full', 'mail:admin'] } });
  });

  it('mail:admin reaches the mail setup, not the account-level operations; account:admin the reverse', async () => {
    const mailAdmin = (await newKey(account.key, { name: 'mail', scopes: ['mail:admin'] })).body.secret;
    const accountAdmin = (await newKey(account.key, { name: 'account', scopes: ['account:admin'] })).body.secret;
    const accountLevel: [string, string, unknown?][] = [
      ['PATCH', '/account', { retention: { emails_days: 30 } }],
      ['GET', '/audit-log'],
      ['GET', '/exports'],
      ['POST', '/privacy/erasures', { email: uniqueEmail('gone') }],
    ];
    for (const [method, path, body] of accountLevel) {
      const refused = await api(method, path, { key: mailAdmin, ...(body ? { body } : {}) });
      expect({ path, status: refused.status, code: refused.body.error?.code }).toEqual({ path, status: 403, code: 'insufficient_scope' });
      const allowed = await api(method, path, { key: accountAdmin, ...(body ? { body } : {}) });
      expect({ path, ok: allowed.status < 300 }).toEqual({ path, ok: true });
    }
    expect((await api('GET', '/smtp-credentials', { key: mailAdmin })).status).toBe(200);
    expect((await api('GET', '/smtp-credentials', { key: accountAdmin })).status).toBe(403);
  });
});

describe('POST /smtp-credentials', () => {
  it("a limited key's credential is limited the same way (never unlimited), and the relay refuses another domain", async () => {
    const made = await api('POST', '/smtp-credentials', { key: limited, body: { name: 'relay' } });
    expect(made.status).toBe(201);
    expect(made.body.smtp_credential.allowed_domains).toEqual([SANDBOX]);
    await expect(
      transport(made.body.password).sendMail({ from: `a@${other}`, to: account.email, subject: 's', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    const wider = await api('POST', '/smtp-credentials', { key: limited, body: { name: 'wider', allowed_domains: [other] } });
    expect(wider.status).toBe(403);
    expect(wider.body.error.code).toBe('domain_not_allowed');
  });
});

describe('revoking: only what your reach covers', () => {
  it("a mail:admin key cannot revoke a full key, nor a limited key an unlimited one (403); the account's key can", async () => {
    const mailAdmin = (await newKey(account.key, { name: 'developer', scopes: ['mail:admin'] })).body.secret;
    const owner = (await newKey(account.key, { name: 'owner', scopes: ['full'] })).body;
    const refused = await api('DELETE', `/api-keys/${owner.api_key.id}`, { key: mailAdmin });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
    // Still a key: it sends.
    expect((await sendFrom(owner.secret, other)).status).toBe(200);
    const unlimitedCredential = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'any domain' } })).body
      .smtp_credential;
    expect((await api('DELETE', `/smtp-credentials/${unlimitedCredential.id}`, { key: limited })).status).toBe(403);
    const ownCredential = (await api('POST', '/smtp-credentials', { key: limited, body: { name: 'mine' } })).body.smtp_credential;
    expect((await api('DELETE', `/smtp-credentials/${ownCredential.id}`, { key: limited })).status).toBe(200);
    expect((await api('DELETE', `/api-keys/${owner.api_key.id}`, { key: account.key })).status).toBe(200);
    expect((await api('DELETE', `/smtp-credentials/${unlimitedCredential.id}`, { key: account.key })).status).toBe(200);
  });
});

describe('the dashboard: a developer', () => {
  let owner: SignedIn;
  let developer: SignedIn;
  const post = (who: SignedIn, path: string, fields: Record<string, string | string[]>): Promise<DashboardResponse> => {
    const body = new URLSearchParams({ csrf_token: who.csrf });
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
    return dashboardRequest('POST', path, { cookie: who.cookie, rawBody: body.toString(), headers: FORM });
  };
  const secretOf = (response: DashboardResponse) => /<code aria-label="API key secret" data-copy>([^<]+)<\/code>/.exec(response.text)?.[1];

  beforeAll(async () => {
    owner = await signIn((await newDashboardUser(account)).email);
    const email = uniqueEmail('developer');
    const invited = await dashboardRequest('POST', '/dashboard/team/invitations', {
      cookie: owner.cookie,
      csrf: owner.csrf,
      body: { email, role: 'developer' },
    });
    expect(invited.status).toBe(201);
    const token = new URL(invited.body.link).searchParams.get('token');
    expect((await dashboardRequest('POST', '/dashboard/accept-invitation', { body: { token, password: DASHBOARD_PASSWORD } })).status).toBe(
      200,
    );
    developer = await signIn(email);
  });

  it("the form offers every scope but full and account:admin; the owner's offers them all", async () => {
    const offered = (response: DashboardResponse) => [...response.text.matchAll(/name="scopes" value="([^"]+)"/g)].map((match) => match[1]);
    const mine = offered(await dashboardRequest('GET', '/dashboard/api-keys', { cookie: developer.cookie }));
    expect(mine).toContain('mail:admin');
    expect(mine).not.toContain('full');
    expect(mine).not.toContain('account:admin');
    expect(offered(await dashboardRequest('GET', '/dashboard/api-keys', { cookie: owner.cookie }))).toEqual(
      expect.arrayContaining(['full', 'account:admin', 'mail:admin']),
    );
  });

  it('creating a full or account:admin key is refused (the form says why); a mail:admin key is made, and it cannot reach the account settings or the audit log', async () => {
    for (const scopes of ['full', 'account:admin']) {
      const refused = await post(developer, '/dashboard/api-keys', { name: `dev ${scopes}`, scopes });
      // Back to the form with the refusal as its message, as any refused form; no key made.
      expect(refused.status).toBe(303);
      expect(secretOf(refused)).toBeUndefined();
      const flash = refused.setCookies.find((line) => line.startsWith('svc_flash='))!.split(';')[0]!;
      const shown = await dashboardRequest('GET', refused.headers.location!, {
        headers: { cookie: `svc_session=${developer.cookie}; ${flash}` },
      });
      expect(shown.text).toContain(`your scopes (mail:admin) do not cover ${scopes}.`);
    }
    const names = (await api('GET', '/api-keys?limit=100', { key: account.key })).body.api_keys.map((key: { name: string }) => key.name);
    expect(names).not.toContain('dev full');
    expect(names).not.toContain('dev account:admin');
    const made = await post(developer, '/dashboard/api-keys', { name: 'dev mail', scopes: 'mail:admin' });
    expect(made.status).toBe(200);
    const key = secretOf(made)!;
    expect(key).toMatch(/^svc_/);
    expect((await api('POST', '/domains', { key, body: { name: `${unique('dev')}.example.com` } })).status).toBe(201);
    for (const [method, path, body] of [
      ['PATCH', '/account', { retention: { emails_days: 30 } }],
      ['GET', '/audit-log', undefined],
      ['POST', '/exports', {}],
      ['POST', '/privacy/erasures', { email: uniqueEmail('gone') }],
    ] as [string, string, unknown][]) {
      const refused = await api(method, path, { key, ...(body ? { body } : {}) });
      expect({ path, status: refused.status, code: refused.body.error?.code }).toEqual({ path, status: 403, code: 'insufficient_scope' });
    }
    // The developer's session itself: the settings form and the audit log page are refused, as before.
    expect((await post(developer, '/dashboard/settings', { emails_days: '30' })).status).toBe(403);
    expect((await dashboardRequest('GET', '/dashboard/audit-log', { cookie: developer.cookie })).status).toBe(403);
  });

  it("revoking an owner's full key from the developer's page is refused (the page says why); the key still works", async () => {
    const ownerKey = (await newKey(account.key, { name: 'owner key', scopes: ['full'] })).body;
    const refused = await post(developer, `/dashboard/api-keys/${ownerKey.api_key.id}/revoke`, {});
    expect(refused.status).toBe(303);
    const flash = refused.setCookies.find((line) => line.startsWith('svc_flash='))!.split(';')[0]!;
    const shown = await dashboardRequest('GET', refused.headers.location!, {
      headers: { cookie: `svc_session=${developer.cookie}; ${flash}` },
    });
    expect(shown.text).toContain('is revoked only by one whose reach covers it');
    expect((await sendFrom(ownerKey.secret, other)).status).toBe(200);
  });

  it("an owner's form still makes a full key, which reaches the account settings and the audit log", async () => {
    const made = await post(owner, '/dashboard/api-keys', { name: 'owner full', scopes: 'full' });
    expect(made.status).toBe(200);
    const key = secretOf(made)!;
    expect((await api('PATCH', '/account', { key, body: { retention: { emails_days: 30 } } })).status).toBe(200);
    expect((await api('GET', '/audit-log', { key })).status).toBe(200);
  });
});

describe('automations: within the reach of whoever made them', () => {
  async function runOf(automationId: string, status: string) {
    const { services } = stack();
    return waitFor(async () => {
      const page = await services.runs.list(automationId, { limit: 10 });
      const run = page.items[0] && (await services.runs.get(page.items[0].id));
      return run && run.status === status ? run : undefined;
    }, `a ${status} run of ${automationId}`);
  }

  it('a limited key cannot save a step sending from another domain (403 domain_not_allowed naming the step)', async () => {
    const refused = await api('POST', '/automations', {
      key: limited,
      body: {
        name: 'wide',
        trigger: { event: unique('e') },
        steps: [{ key: 'hello', type: 'send_email', to: account.email, from: `a@${other}`, subject: 'Hi', text: 'x' }],
      },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'domain_not_allowed', details: { field: 'steps.0.from', domains: [other] } });
  });

  it("POST /events (from the account's unlimited key) cannot make a limited key's automation send from another domain", async () => {
    const event = unique('user.created');
    const created = await api('POST', '/automations', {
      key: limited,
      body: {
        name: 'templated sender',
        status: 'active',
        trigger: { event },
        steps: [{ key: 'hello', type: 'send_email', to: account.email, from: '{{event.data.sender}}', subject: 'Hi', text: 'x' }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.automation.allowed_domains).toEqual([SANDBOX]);
    const id = created.body.automation.id;

    expect(
      (await api('POST', '/events', { key: account.key, body: { name: event, user_id: 'u-1', data: { sender: `ceo@${other}` } } })).status,
    ).toBe(202);
    const refused = await runOf(id, 'failed');
    expect(refused.error).toMatch(/^domain_not_allowed: /);
    expect(refused.history[0]).toMatchObject({ key: 'hello', status: 'failed', output: { status: 403, code: 'domain_not_allowed' } });

    // Within its reach, the same automation sends.
    expect(
      (await api('POST', '/events', { key: account.key, body: { name: event, user_id: 'u-2', data: { sender: `team@${SANDBOX}` } } }))
        .status,
    ).toBe(202);
    const sent = await waitFor(async () => {
      const page = await stack().services.runs.list(id, { limit: 10 });
      const runs = await Promise.all(page.items.map((item) => stack().services.runs.get(item.id)));
      return runs.find((run) => run?.event.user_id === 'u-2' && run.status === 'completed');
    }, 'the run within reach completed');
    expect(sent.history[0]).toMatchObject({ key: 'hello', status: 'completed' });
  });
});
