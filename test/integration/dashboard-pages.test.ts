/**
 * The dashboard's pages (docs/dashboard.md, "Pages") against the running local cloud, as a browser
 * without script sees them: every page answers HTML with its h1 to a signed-in user and sends anyone else
 * to the sign-in page; forms post url-encoded with the session's CSRF token (403 without it) and redirect
 * with a flash; the test-email form sends through the send use case and lands on the email's page, which
 * follows it to delivered; a secret shows once; values are escaped; the preview frame runs no script.
 */
import { randomUUID } from 'node:crypto';
import { CLOUDFLARE_LOCAL_TOKEN } from '#localstack/emulators/cloudflare';
import { dashboardRequest, newDashboardUser, signIn, DASHBOARD_PASSWORD, type DashboardResponse, type SignedIn } from './harness/dashboard';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';
import { publishAll, uniqueDomain, unpublish } from './harness/dns';

let account: TestAccount;
let userEmail: string;
let session: SignedIn;

beforeAll(async () => {
  account = await newAccount({ plan: 'pro' });
  userEmail = (await newDashboardUser(account)).email;
  session = await signIn(userEmail);
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** GET as the signed-in user (or with another session's cookie; null: without one). */
const page = (path: string, cookie: string | null = session.cookie) => dashboardRequest('GET', path, cookie === null ? {} : { cookie });

/** A form post as the browser sends it: url-encoded, the session cookie, the CSRF field (unless `csrf` is null), the Origin. */
function post(
  path: string,
  fields: Record<string, string | string[]> = {},
  options: { csrf?: string | null; cookie?: string } = {},
): Promise<DashboardResponse> {
  const body = new URLSearchParams();
  const csrf = options.csrf === undefined ? session.csrf : options.csrf;
  if (csrf !== null) body.set('csrf_token', csrf);
  for (const [name, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  return dashboardRequest('POST', path, { cookie: options.cookie ?? session.cookie, rawBody: body.toString(), headers: FORM });
}

/** Follows a 303 as a browser does: GET the Location with the session and the flash cookie it set. */
async function follow(response: DashboardResponse): Promise<DashboardResponse> {
  expect(response.status).toBe(303);
  const flash = response.setCookies.find((line) => line.startsWith('svc_flash='))?.split(';')[0];
  return dashboardRequest('GET', response.headers.location!, {
    headers: { cookie: [`svc_session=${session.cookie}`, ...(flash ? [flash] : [])].join('; ') },
  });
}

const h1 = (text: string) => /<h1>([^<]*)<\/h1>/.exec(text)?.[1];

const PAGES: [string, string][] = [
  ['/dashboard/emails', 'Emails'],
  ['/dashboard/domains', 'Domains'],
  ['/dashboard/api-keys', 'API keys'],
  ['/dashboard/smtp-credentials', 'SMTP credentials'],
  ['/dashboard/webhooks', 'Webhooks'],
  ['/dashboard/suppressions', 'Suppressions'],
  ['/dashboard/tenants', 'Tenants'],
  ['/dashboard/templates', 'Templates'],
  ['/dashboard/automations', 'Automations'],
  ['/dashboard/received', 'Received'],
  ['/dashboard/imports', 'Imports'],
  ['/dashboard/audit-log', 'Audit log'],
  ['/dashboard/settings', 'Settings'],
];

describe('every page', () => {
  it.each(PAGES)('GET %s answers a signed-in user with HTML and its h1 (%s)', async (path, title) => {
    const response = await page(path);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(h1(response.text)).toBe(title.replace('&', '&amp;'));
    // Scripts from the dashboard only (nothing inline, no eval), and their requests to its own origin only (the session doors).
    expect(response.headers['content-security-policy']).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(response.headers['content-security-policy']).toMatch(/(^|; )connect-src 'self'(;|$)/);
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it.each(PAGES)('GET %s without a session redirects (302) to the sign-in page with next', async (path) => {
    const response = await page(path, null);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`/dashboard/sign-in?next=${encodeURIComponent(path)}`);
    const expired = await page(path, 'A'.repeat(43));
    expect(expired.status).toBe(302);
  });

  it('has a skip link, the main navigation with every area, the sign-out button, one h1 and the live region', async () => {
    const { text } = await page('/dashboard/domains');
    expect(text).toContain('<a class="skip" href="#main">Skip to main content</a>');
    const nav = /<nav aria-label="Main">([\s\S]*?)<\/nav>/.exec(text)![1]!;
    const links = [...nav.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => m[2]);
    expect(links).toEqual([
      'Emails',
      'Domains',
      'API keys',
      'SMTP credentials',
      'Webhooks',
      'Suppressions',
      'Tenants',
      'Templates',
      'Automations',
      'Received',
      'Imports',
      'Audit log',
      'Settings',
    ]);
    expect(nav).toContain('<a href="/dashboard/domains" aria-current="page">Domains</a>');
    expect(text).toMatch(
      /<form method="post" action="\/dashboard\/sign-out"><input type="hidden" name="csrf_token" value="[^"]+">.*<button type="submit">Sign out<\/button><\/form>/,
    );
    expect(text.match(/<h1>/g)).toHaveLength(1);
    expect(text).toContain('<main id="main" tabindex="-1"><div class="flash" aria-live="polite">');
    // Every input has a label pointing at it.
    for (const [, id] of text.matchAll(/<input id="([^"]+)"/g)) expect(text).toContain(`<label for="${id}">`);
  });

  it('GET /dashboard goes to the emails page; an unknown page is a 404 HTML page', async () => {
    expect((await page('/dashboard')).headers.location).toBe('/dashboard/emails');
    const missing = await page('/dashboard/domains/dom_01JD8Z6X4Q2T9V3N5M7K1H0G8F');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(h1(missing.text)).toBe('Not found');
    const unknown = await page('/dashboard/no-such-page');
    expect(unknown.status).toBe(404);
    expect(h1(unknown.text)).toBe('Not found');
    // The JSON routes of the group are untouched.
    expect((await page('/dashboard/session')).body).toMatchObject({ csrf_token: session.csrf });
  });

  it('serves its stylesheet and script from the group, cached for a year, the script far under 10 KB', async () => {
    const { text } = await page('/dashboard/emails');
    const css = /<link rel="stylesheet" href="(\/dashboard\/assets\/app\.[0-9a-f]{12}\.css)">/.exec(text)![1]!;
    const js = /<script src="(\/dashboard\/assets\/app\.[0-9a-f]{12}\.js)" defer><\/script>/.exec(text)![1]!;
    const style = await page(css, null);
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const script = await page(js, null);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Buffer.byteLength(script.text)).toBeLessThan(8 * 1024);
    expect(Buffer.byteLength(style.text)).toBeLessThan(10 * 1024);
  });
});

describe('sign-in and sign-out pages', () => {
  it('shows the form; a form sign-in redirects to next (or the emails page); a wrong password re-renders the form with the error', async () => {
    const form = await page('/dashboard/sign-in?next=%2Fdashboard%2Fwebhooks', null);
    expect(form.status).toBe(200);
    expect(form.text).toMatch(/<label for="sign-in-email">Email<\/label><input id="sign-in-email" name="email" type="email"/);
    expect(form.text).toMatch(
      /<label for="sign-in-password">Password<\/label><input id="sign-in-password" name="password" type="password"/,
    );
    expect(form.text).toContain('<button type="submit">Sign in</button>');
    expect(form.text).toContain('<input type="hidden" name="next" value="/dashboard/webhooks">');

    const signInForm = (fields: Record<string, string>) =>
      dashboardRequest('POST', '/dashboard/sign-in', { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
    const ok = await signInForm({ email: userEmail, password: DASHBOARD_PASSWORD, next: '/dashboard/webhooks' });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/dashboard/webhooks');
    expect(ok.setCookies.some((line) => line.startsWith('svc_session='))).toBe(true);
    const home = await signInForm({ email: userEmail, password: DASHBOARD_PASSWORD });
    expect(home.headers.location).toBe('/dashboard/emails');
    // next never leaves the dashboard.
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/emails']) {
      expect((await signInForm({ email: userEmail, password: DASHBOARD_PASSWORD, next })).headers.location).toBe('/dashboard/emails');
    }

    const wrong = await signInForm({ email: userEmail, password: 'not the password at all', next: '/dashboard/webhooks' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['content-type']).toMatch(/^text\/html/);
    expect(wrong.text).toContain('role="alert">Invalid email or password.');
    expect(wrong.text).toContain(`value="${userEmail}"`);
    expect(wrong.text).toContain('<input type="hidden" name="next" value="/dashboard/webhooks">');
    expect(wrong.setCookies.filter((line) => line.startsWith('svc_session='))).toEqual([]);
  });

  it('signs out from the header form: 303 to the sign-in page, and the session is over', async () => {
    const own = await signIn(userEmail);
    const out = await post('/dashboard/sign-out', {}, { csrf: own.csrf, cookie: own.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/dashboard/sign-in');
    expect(out.setCookies.some((line) => /^svc_session=; Max-Age=0/.test(line))).toBe(true);
    expect((await page('/dashboard/emails', own.cookie)).status).toBe(302);
    const signInPage = await dashboardRequest('GET', '/dashboard/sign-in', {
      headers: { cookie: out.setCookies.find((line) => line.startsWith('svc_flash='))!.split(';')[0]! },
    });
    expect(signInPage.text).toContain('Signed out.');
  });
});

describe('forms and CSRF', () => {
  it('refuses a form post without the CSRF token (403) or with another one; without a session it goes to sign in', async () => {
    const before = (await api('GET', '/api-keys', { key: account.key })).body.api_keys.length;
    const missing = await post('/dashboard/api-keys', { name: 'no token', scopes: 'full' }, { csrf: null });
    expect(missing.status).toBe(403);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.text).toContain('Missing CSRF token');
    expect((await post('/dashboard/api-keys', { name: 'wrong token', scopes: 'full' }, { csrf: 'x'.repeat(43) })).status).toBe(403);
    const anonymous = await dashboardRequest('POST', '/dashboard/api-keys', { rawBody: 'name=anon&scopes=full', headers: FORM });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe('/dashboard/sign-in');
    const foreign = await dashboardRequest('POST', '/dashboard/api-keys', {
      cookie: session.cookie,
      rawBody: `csrf_token=${session.csrf}&name=x&scopes=full`,
      headers: FORM,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect((await api('GET', '/api-keys', { key: account.key })).body.api_keys.length).toBe(before);
  });

  it('sends a use case error back to the form with the message as a flash', async () => {
    const response = await post('/dashboard/domains', { name: 'not a domain name' });
    expect(response.headers.location).toBe('/dashboard/domains');
    const back = await follow(response);
    expect(back.text).toMatch(/<p class="error" role="alert">[^<]*name/);
    // One-shot: the cookie is cleared by the page that showed it.
    expect(back.setCookies.some((line) => /^svc_flash=; Max-Age=0/.test(line))).toBe(true);
  });
});

describe('emails', () => {
  it('sends a test email from the form and follows it on its page to delivered', async () => {
    const emails = await page('/dashboard/emails');
    expect(emails.text).toMatch(/<label for="[^"]+">To<\/label><input id="[^"]+" name="to" type="email" value="([^"]+)"/);
    expect(emails.text).toContain(`name="to" type="email" value="${account.email}"`);
    expect(emails.text).toContain('<button type="submit">Send test email</button>');

    const sent = await post('/dashboard/emails/test', { to: account.email, subject: 'Dashboard test' });
    expect(sent.status).toBe(303);
    const id = /^\/dashboard\/emails\/(msg_[0-9A-Z]{26})$/.exec(sent.headers.location!)![1]!;
    const first = await follow(sent);
    expect(first.status).toBe(200);
    expect(h1(first.text)).toBe('Dashboard test');
    expect(first.text).toContain('Test email accepted.');
    expect(first.text).toMatch(/<ol aria-label="Timeline" class="timeline"><li><strong>accepted<\/strong>/);

    const email = await waitForStatus(account, id, 'delivered', 20_000);
    expect(email.from).toContain(`@${stack().info.env.SANDBOX_DOMAIN ?? 'sandbox.mailservice.dev'}`);
    const done = await page(`/dashboard/emails/${id}`);
    expect(done.text).toMatch(/<li><strong>delivered<\/strong> — <time/);
    expect(done.text).toMatch(/<li><strong>sent<\/strong>/);
    expect(done.text).not.toContain('http-equiv="refresh"');
    const frame = /<iframe [^>]*title="Email preview"[^>]*>/.exec(done.text)![0];
    expect(frame).toMatch(/ sandbox /);
    expect(frame).not.toContain('allow-scripts');
    expect(frame).toContain('srcdoc="&lt;p&gt;This is a test email');
    expect(done.text).toMatch(/<h2 id="headers-heading">Headers<\/h2>[\s\S]*<pre>[\s\S]*Subject: Dashboard test/);
  });

  it('refreshes an email page while it is on its way (unless asked not to)', async () => {
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: 'Acme <hello@sandbox.mailservice.dev>',
        to: account.email,
        subject: 'On its way',
        text: 'x',
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    expect(sent.status).toBe(200);
    // A scheduled email is not on its way yet: no refresh.
    expect((await page(`/dashboard/emails/${sent.body.id}`)).text).not.toContain('http-equiv="refresh"');
    const queued = await post('/dashboard/emails/test', { to: account.email, subject: 'Fresh' });
    const fresh = await follow(queued);
    if (/<li><strong>delivered/.test(fresh.text)) return; // delivered already: nothing to follow
    expect(fresh.text).toContain('<meta http-equiv="refresh" content="2">');
    expect((await page(`${queued.headers.location}?refresh=off`)).text).not.toContain('http-equiv="refresh"');
  });

  it('escapes what an email holds: a subject with <script> is text, the body only runs in the sandbox', async () => {
    const subject = `<script>alert("x")</script> & ${randomUUID().slice(0, 6)}`;
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: 'Acme <hello@sandbox.mailservice.dev>',
        to: account.email,
        subject,
        html: '<p>hi</p><script>parent.alert(1)</script><img src=x onerror="alert(2)">',
      },
    });
    expect(sent.status).toBe(200);
    const escaped = subject.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const detail = await page(`/dashboard/emails/${sent.body.id}`);
    expect(h1(detail.text)).toBe(escaped);
    expect(detail.text).not.toContain('<script>alert');
    expect(detail.text).not.toContain('<script>parent');
    expect(detail.text).toContain('srcdoc="&lt;p&gt;hi&lt;/p&gt;&lt;script&gt;parent.alert(1)&lt;/script&gt;');
    await waitFor(async () => (await page('/dashboard/emails')).text.includes(escaped), 'the email in the list');
    const list = await page('/dashboard/emails');
    expect(list.text).toContain(`<a href="/dashboard/emails/${sent.body.id}">${escaped}</a>`);
    expect(list.text).not.toContain('<script>alert');
  });

  it('searches by recipient, subject, status and tag, and shows the activity charts with a data table', async () => {
    const marker = randomUUID().slice(0, 8);
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: {
        from: 'Acme <hello@sandbox.mailservice.dev>',
        to: account.email,
        subject: `Invoice ${marker}`,
        text: 'x',
        tags: [{ name: 'kind', value: marker }],
      },
    });
    await waitFor(async () => (await page(`/dashboard/emails?subject=${marker}`)).text.includes(sent.body.id), 'the email in the search');
    const search = await page(`/dashboard/emails?subject=invoice+${marker}&recipient=${encodeURIComponent(account.email.slice(0, 8))}`);
    expect(search.text).toContain(`/dashboard/emails/${sent.body.id}`);
    expect(search.text).toMatch(/Searched \d+ emails, newest first: 1 matched/);
    expect((await page(`/dashboard/emails?tag=kind%3D${marker}`)).text).toContain(sent.body.id);
    expect((await page(`/dashboard/emails?tag=kind%3Dother`)).text).not.toContain(sent.body.id);
    expect((await page(`/dashboard/emails?subject=${marker}&status=bounced`)).text).toContain('No email matched.');
    const form = (await page('/dashboard/emails')).text;
    for (const label of ['Recipient', 'Subject', 'Status', 'Tag', 'Tenant'])
      expect(form).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    expect(form).toContain('<button type="submit">Search</button>');
    expect(form).toMatch(/<svg class="chart" [^>]*role="img" aria-labelledby="chart-sends-title chart-sends-desc"/);
    expect(form).toContain('<title id="chart-rates-title">Delivery, bounce and complaint rates per day</title>');
    expect(form).toMatch(/<details><summary>Data table<\/summary>[\s\S]*<th scope="col">Bounce rate<\/th>/);
  });

  it("searches by tenant: only that tenant's emails (as GET /emails?tenant=); an unknown tenant is said, not a failed page", async () => {
    const withTenants = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await createTenant(withTenants, {}, 'dash');
    const send = async (extra: Record<string, unknown>) => {
      const sent = await api('POST', '/emails', {
        key: withTenants.key,
        body: { from: 'Acme <hello@sandbox.mailservice.dev>', to: withTenants.email, subject: 'Tenant search', text: 'x', ...extra },
      });
      expect(sent.status).toBe(200);
      return sent.body.id as string;
    };
    const tenantEmail = await send({ tenant: tenant.external_id });
    const accountEmail = await send({});
    const own = await signIn((await newDashboardUser(withTenants)).email);
    const all = await waitFor(async () => {
      const list = await page('/dashboard/emails', own.cookie);
      return list.text.includes(tenantEmail) && list.text.includes(accountEmail) ? list : undefined;
    }, 'both emails in the list');
    expect(all.text).toMatch(/<label for="[^"]+">Tenant<\/label>/);
    const byTenant = await page(`/dashboard/emails?tenant=${encodeURIComponent(tenant.external_id)}`, own.cookie);
    expect(byTenant.status).toBe(200);
    expect(byTenant.text).toContain(`<a href="/dashboard/emails/${tenantEmail}">`);
    expect(byTenant.text).toContain(`<td>${tenant.external_id}</td></tr>`);
    expect(byTenant.text).not.toContain(accountEmail);
    expect(byTenant.text).toContain(`value="${tenant.external_id}"`);
    const unknown = await page('/dashboard/emails?tenant=nobody-here', own.cookie);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toMatch(/<p class="error" role="alert">[^<]*nobody-here/);
    expect(unknown.text).toContain('No emails yet.');
  });
});

describe('API keys and SMTP credentials', () => {
  it('shows a created API key secret once, in the POST answer; never on later pages; Revoke ends it', async () => {
    const created = await post('/dashboard/api-keys', { name: 'from the dashboard', scopes: ['emails:send', 'account:read'] });
    expect(created.status).toBe(200);
    const secret = /<code aria-label="API key secret" data-copy>([^<]+)<\/code>/.exec(created.text)![1]!;
    expect(secret).toMatch(/^svc_/);
    expect((await api('GET', '/emails?limit=1', { key: secret })).status).toBe(200);
    expect(created.headers['cache-control']).toBe('no-store');
    const later = await page('/dashboard/api-keys');
    expect(later.text).toContain('from the dashboard');
    expect(later.text).not.toContain(secret);
    expect(later.text).not.toContain('API key secret');

    const keyId = /<td id="key-(key_[0-9A-Z]+)">from the dashboard<\/td>/.exec(later.text)![1]!;
    expect(later.text).toContain(`<button type="submit" class="danger" aria-describedby="key-${keyId}">Revoke</button>`);
    const revoked = await post(`/dashboard/api-keys/${keyId}/revoke`);
    expect((await follow(revoked)).text).toContain('API key revoked');
    expect((await api('GET', '/emails?limit=1', { key: secret })).status).toBe(401);
  });

  it('shows an SMTP password once', async () => {
    const created = await post('/dashboard/smtp-credentials', { name: 'relay' });
    expect(created.status).toBe(200);
    const password = /<code aria-label="SMTP password" data-copy>([^<]+)<\/code>/.exec(created.text)![1]!;
    expect(password.length).toBeGreaterThan(20);
    expect((await page('/dashboard/smtp-credentials')).text).not.toContain(password);
  });
});

describe('domains', () => {
  it('adds a domain, verifies, and applies its records through Cloudflare: per-record results and "verified"', async () => {
    const parent = `p${randomUUID().slice(0, 8)}.dash-test.test`;
    const zone = await fetch(`${stack().info.env.CLOUDFLARE_API_URL}/zones`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CLOUDFLARE_LOCAL_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: parent, account: { id: 'local' } }),
    });
    expect(zone.status).toBeLessThan(300);
    const added = await post('/dashboard/domains', { name: `mail.${parent}` });
    expect(added.status).toBe(303);
    expect(added.headers.location).toMatch(/^\/dashboard\/domains\/dom_[0-9A-Z]{26}$/);
    const domainPage = await follow(added);
    expect(h1(domainPage.text)).toBe(`mail.${parent}`);
    expect(domainPage.text).toContain('<th scope="col">Status</th>');
    expect(domainPage.text).toContain('<button type="submit">Verify</button>');
    expect(domainPage.text).toMatch(
      /<label for="dns-host">DNS host<\/label><select id="dns-host" name="provider"><option value="route53" selected>Route 53<\/option><option value="cloudflare">Cloudflare<\/option><\/select>/,
    );
    for (const label of ['Access key ID', 'Secret access key', 'API token'])
      expect(domainPage.text).toMatch(new RegExp(`<label for="[^"]+">${label}</label>`));
    expect(domainPage.text).toContain('<button type="submit">Apply DNS records</button>');
    // Never registered with SES yet (provider null): its records say what is missing, no SES section.
    expect(domainPage.text).not.toContain('id="provider-heading"');

    const verified = await follow(await post(`${added.headers.location}/verify`));
    expect(verified.text).toMatch(/Checked: mail\.\S+ is (pending|failed)/);

    const applied = await post(`${added.headers.location}/apply`, {
      provider: 'cloudflare',
      api_token: CLOUDFLARE_LOCAL_TOKEN,
      access_key_id: '',
      secret_access_key: '',
    });
    expect(applied.status).toBe(200);
    expect(applied.text).toContain('<h2 id="apply-results-heading">Apply results</h2>');
    expect(applied.text).toMatch(/<td>ownership<\/td><td>TXT<\/td>[\s\S]*?<span class="status good">created<\/span>/);
    expect(applied.text).toContain('Status: <span class="status good">verified</span>');
    expect(applied.text).not.toContain(CLOUDFLARE_LOCAL_TOKEN);
    // SES verified it too: no word about the mail provider, on the page or in the list.
    expect(applied.text).not.toContain('id="provider-heading"');
    expect((await page(added.headers.location!)).text).not.toContain('id="provider-heading"');
    expect(listRow((await page('/dashboard/domains')).text, `mail.${parent}`)).toBe('<span class="status good">verified</span>');
  });

  it('a domain whose records all check out while SES has not confirmed it: the page and the list say SES is pending, with its message', async () => {
    // The stack's SES verifies *.ses-verifies-later.test only 4 s after registration (harness/global-setup.ts).
    const name = `d${randomUUID().slice(0, 8)}.ses-verifies-later.test`;
    const added = await post('/dashboard/domains', { name });
    const path = added.headers.location!;
    const { records } = (await api('GET', `/domains/${path.split('/').pop()}`, { key: account.key })).body.domain;
    await publishAll(records);
    const verify = await post(`${path}/verify`);
    // SES has not looked yet (it looks when asked): without the DKIM record it stays PENDING however slow this run is.
    await unpublish(records.find((record: { purpose: string }) => record.purpose === 'dkim').name, 'TXT');

    const checked = await follow(verify);
    expect(checked.text).toContain(
      `Checked: ${name} is pending; every required record is verified, SES has not confirmed the domain yet (see Mail provider).`,
    );
    expect(checked.text).toContain('Status: <span class="status wait">pending</span>');
    const notice = section(checked.text, 'provider-heading');
    expect(notice).toContain('<h2 id="provider-heading">Mail provider (SES)</h2>');
    expect(notice).toContain('<dt>Status</dt><dd><span class="status wait">pending</span></dd>');
    expect(notice).toMatch(/<dt>Checked<\/dt><dd><time datetime="\d{4}-[^"]+">/);
    expect(notice).toMatch(
      /<dd class="provider-message">SES has not yet confirmed the DKIM record \(verification PENDING, DKIM PENDING\)[^<]*<\/dd>/,
    );
    expect(notice).toContain('Sends from this domain are refused until SES confirms it.');
    expect(notice).not.toContain('Verify again');
    expect(listRow((await page('/dashboard/domains')).text, name)).toBe(
      '<span class="status wait">pending</span> <span class="status wait">SES pending</span>',
    );
  });

  it("shows the provider's message as text, never markup; a failed verification offers Verify again", async () => {
    const name = uniqueDomain();
    const added = await post('/dashboard/domains', { name });
    const path = added.headers.location!;
    const id = path.split('/').pop()!;
    // A message no SES would write, recorded through the domain store as a check does.
    const { services } = stack();
    const stored = (await services.domains.get(id))!.domain;
    const at = new Date().toISOString();
    const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & 'single'`;
    expect(
      await services.domains.recordCheck(account.id, id, {
        status: 'pending',
        records: stored.records,
        at,
        inbound_enabled: false,
        provider: { status: 'failed', message: hostile, checked_at: at },
      }),
    ).not.toBeNull();

    const shown = await page(path);
    expect(shown.status).toBe(200);
    const notice = section(shown.text, 'provider-heading');
    expect(notice).toContain('<dt>Status</dt><dd><span class="status bad">failed</span></dd>');
    expect(notice).toContain(`<time datetime="${at}">`);
    expect(notice).toContain(
      '<dd class="provider-message">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &quot;quoted&quot; &amp; &#39;single&#39;</dd>',
    );
    expect(shown.text).not.toContain('<script>alert');
    expect(shown.text).not.toContain('<img src=x');
    expect(notice).toMatch(
      new RegExp(
        `<form class="inline" method="post" action="${path}/verify"><input type="hidden" name="csrf_token" value="[^"]+"><button type="submit">Verify again</button></form> <span class="hint">Verifying again restarts SES's verification`,
      ),
    );
    expect(listRow((await page('/dashboard/domains')).text, name)).toBe(
      '<span class="status wait">pending</span> <span class="status bad">SES failed</span>',
    );
  });
});

/** The status cell of a domain's row in the domain list. */
function listRow(text: string, name: string): string | undefined {
  return new RegExp(`>${name.replace(/\./g, '\\.')}</a></td><td>(.*?)</td>`).exec(text)?.[1];
}

/** A page's section labelled by the heading with this id. */
function section(text: string, headingId: string): string {
  const found = new RegExp(`<section [^>]*aria-labelledby="${headingId}">[\\s\\S]*?</section>`).exec(text)?.[0];
  expect(found).toBeDefined();
  return found!;
}

describe('webhooks', () => {
  it('creates an endpoint (secret once), disables and enables it, and replays a failed delivery', async () => {
    const created = await post('/dashboard/webhooks', { url: 'https://127.0.0.1:1/hook', events: ['email.delivered', 'email.bounced'] });
    expect(created.status).toBe(200);
    const secret = /<code aria-label="Signing secret" data-copy>([^<]+)<\/code>/.exec(created.text)![1]!;
    expect(secret).toMatch(/^whsec_/);
    const id = /<code>(wh_[0-9A-Z]{26})<\/code>/.exec(created.text)![1]!;
    const path = `/dashboard/webhooks/${id}`;
    expect((await page(path)).text).not.toContain(secret);
    expect((await page('/dashboard/webhooks')).text).toMatch(/<label for="[^"]+">Endpoint URL<\/label>/);
    expect(
      (await page('/dashboard/webhooks')).text.match(/type="checkbox" id="[^"]+" name="events" value="[^"]+" checked>/g)!.length,
    ).toBeGreaterThan(10);

    const disabled = await follow(await post(`${path}/enabled`, { enabled: 'false' }));
    expect(disabled.text).toContain('Webhook disabled');
    expect(disabled.text).toContain('>Enable</button>');
    const enabled = await follow(await post(`${path}/enabled`, { enabled: 'true' }));
    expect(enabled.text).toContain('>Disable</button>');

    // An event to an endpoint that refuses connections: its delivery fails after the (shortened) retries.
    expect((await api('POST', '/emails/test', { key: account.key, body: { event: 'email.delivered' } })).status).toBe(200);
    const deliveryId = await waitFor(
      async () => {
        const list = await api('GET', `/webhooks/${id}/deliveries`, { key: account.key });
        const failed = list.body.deliveries.find((delivery: { status: string }) => delivery.status === 'failed');
        return failed?.id as string | undefined;
      },
      'a failed delivery',
      60_000,
      250,
    );
    const log = await page(path);
    expect(log.text).toContain('<h2 id="deliveries-heading">Deliveries</h2>');
    expect(log.text).toContain(`<a href="${path}/deliveries/${deliveryId}" aria-describedby="d-${deliveryId}">View</a>`);
    const delivery = await page(`${path}/deliveries/${deliveryId}`);
    expect(delivery.text).toContain('<h2 id="request-heading">Request</h2>');
    expect(delivery.text).toContain('<h2 id="response-heading">Response</h2>');
    expect(delivery.text).toContain('&quot;type&quot;: &quot;email.delivered&quot;');
    expect(delivery.text).toContain(
      `<form class="inline" method="post" action="${path}/deliveries/${deliveryId}/replay" data-door="/api/webhooks/${id}/deliveries/${deliveryId}/replay" data-door-kind="replay" data-done="Replayed: the delivery is queued again.">`,
    );
    expect(delivery.text).toMatch(/<dd id="delivery-status"><span class="status bad">failed<\/span><\/dd>/);
    const replayed = await post(`${path}/deliveries/${deliveryId}/replay`);
    expect(replayed.headers.location).toBe(`${path}/deliveries/${deliveryId}`);
    expect((await follow(replayed)).text).toContain('Replayed');
  });
});

describe("a webhook's signing secret", () => {
  it('rotates it from the page (the new secret once, the previous one signing for the overlap chosen) and stops the previous one', async () => {
    const created = await post('/dashboard/webhooks', { url: 'https://127.0.0.1:1/rotate', events: ['email.delivered'] });
    const id = /<code>(wh_[0-9A-Z]{26})<\/code>/.exec(created.text)![1]!;
    const first = /<code aria-label="Signing secret" data-copy>([^<]+)<\/code>/.exec(created.text)![1]!;
    const path = `/dashboard/webhooks/${id}`;
    const before = await page(path);
    expect(before.text).toContain('<dd id="secret-rotated">never</dd>');
    expect(before.text).toMatch(
      /<label for="[^"]+">Keep the previous secret signing for<\/label><select id="[^"]+" name="overlap_seconds">/,
    );
    expect(before.text).toContain('<option value="86400" selected>24 hours</option>');
    expect(before.text).not.toContain('Stop the previous secret now');

    const rotated = await post(`${path}/secret`, { overlap_seconds: '3600' });
    expect(rotated.status).toBe(200);
    const next = /<code aria-label="New signing secret" data-copy>([^<]+)<\/code>/.exec(rotated.text)![1]!;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(first);
    const read = await api('GET', `/webhooks/${id}`, { key: account.key });
    expect(Date.parse(read.body.webhook.previous_secret_expires_at) - Date.parse(read.body.webhook.secret_rotated_at)).toBe(3600 * 1000);
    const during = await page(path);
    expect(during.text).not.toContain(next);
    expect(during.text).toMatch(/<dd id="previous-secret">signs too until /);

    const stopped = await post(`${path}/secret/previous`);
    expect(stopped.headers.location).toBe(path);
    const after = await follow(stopped);
    expect(after.text).toContain('The previous secret no longer signs');
    expect(after.text).toContain('<dd id="previous-secret">none signing</dd>');
    expect((await api('GET', `/webhooks/${id}`, { key: account.key })).body.webhook.previous_secret_expires_at).toBeNull();

    // An overlap past 7 days is refused as the API refuses it: back to the page, the message in its flash.
    const refused = await post(`${path}/secret`, { overlap_seconds: String(8 * 86_400) });
    expect(refused.headers.location).toBe(path);
    expect((await follow(refused)).text).toContain('overlap_seconds is at most 604800');
  });
});

describe('automations, templates, suppressions', () => {
  it('creates an automation from JSON and dry-runs it: the trace step by step', async () => {
    const definition = {
      name: 'Dash dry run',
      trigger: { event: 'user.created' },
      steps: [
        {
          key: 'welcome',
          type: 'send_email',
          from: 'Acme <hello@sandbox.mailservice.dev>',
          subject: 'Hi {{event.data.first_name}}',
          text: 'Welcome.',
        },
        { key: 'wait', type: 'delay', duration: '1 day' },
        { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
      ],
    };
    const created = await post('/dashboard/automations', { definition: JSON.stringify(definition) });
    expect(created.status).toBe(303);
    const path = created.headers.location!;
    const detail = await follow(created);
    expect(h1(detail.text)).toBe('Dash dry run');
    expect(detail.text).toMatch(/<label for="[^"]+">Event name<\/label><input id="[^"]+" name="name" type="text" value="user.created"/);
    for (const label of ['Email', 'User ID', 'Event data (JSON)']) expect(detail.text).toContain(`>${label}</label>`);
    expect(detail.text).toContain('<button type="submit">Dry run</button>');
    // The form posts to the page action; the page script sends it to the session door instead (docs/dashboard.md).
    const automationId = path.split('/').pop()!;
    expect(detail.text).toContain(
      `<form method="post" action="${path}/dry-run" data-door="/api/events" data-door-kind="dry-run" data-done="Dry run finished: its trace is shown above the steps." data-automation-id="${automationId}">`,
    );
    expect(detail.text).toContain('<div id="dry-run-trace"></div>');

    const dry = await post(`${path}/dry-run`, {
      name: 'user.created',
      email: 'ada@example.com',
      user_id: '',
      data: '{"first_name": "Ada", "plan": "free"}',
    });
    expect(dry.status).toBe(200);
    expect(dry.text).toContain('<h2 id="trace-heading">Dry run trace</h2>');
    expect(dry.text).toMatch(
      /<strong>welcome<\/strong> <span class="muted">\(send email\)<\/span>: <span class="status[^"]*">stubbed<\/span>/,
    );
    expect(dry.text).toMatch(/<strong>wait<\/strong> <span class="muted">\(delay\)<\/span>: <span class="status[^"]*">skipped<\/span>/);
    expect(dry.text).toContain('Hi Ada');
    const bad = await post(`${path}/dry-run`, { name: 'user.created', data: '{not json' });
    expect((await follow(bad)).text).toContain('data is not valid JSON');

    // Activated, an event starts a run: the runs table shows it.
    expect((await follow(await post(`${path}/status`, { action: 'activate' }))).text).toContain('Automation active.');
    expect(
      (
        await api('POST', '/events', {
          key: account.key,
          body: { name: 'user.created', email: account.email, data: { first_name: 'Ada' } },
        })
      ).status,
    ).toBe(202);
    const runs = await waitFor(async () => {
      const text = (await page(path)).text;
      return text.includes('<th scope="col">Status</th><th scope="col">Started</th><th scope="col">Steps</th>') ? text : undefined;
    }, 'the run in the runs table');
    expect(runs).toContain('>Pause</button>');
  });

  it('creates a template, previews it with variables, publishes it', async () => {
    const alias = `dash-${randomUUID().slice(0, 6)}`;
    const created = await post('/dashboard/templates', {
      name: 'Dash welcome',
      alias,
      subject: 'Welcome {{name}}',
      html: '<p>Hello {{name}}</p>',
    });
    expect(created.headers.location).toBe(`/dashboard/templates/${alias}`);
    const preview = await post(`/dashboard/templates/${alias}/preview`, { variables: '{"name": "Grace"}' });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('<dd>Welcome Grace</dd>');
    expect(preview.text).toMatch(/<iframe class="preview" sandbox title="Template preview" srcdoc="&lt;p&gt;Hello Grace&lt;\/p&gt;">/);
    const published = await follow(await post(`/dashboard/templates/${alias}/publish`));
    expect(published.text).toContain('Published: version 1');
    // The draft's edit form as the page posts it.
    const draft = { name: 'Dash welcome', subject: 'Welcome back {{name}}', html: '<p>Hi {{name}}</p>', text: '' };
    const saved = await follow(await post(`/dashboard/templates/${alias}`, draft));
    expect(saved.text).toContain('Draft saved');
    expect(saved.text).toContain('draft has unpublished changes');
    // The tracking switches: the domain's setting until chosen, then as chosen (the API's template agrees).
    expect(saved.text).toContain('<dd>opens the domain&#39;s setting, clicks the domain&#39;s setting</dd>');
    const tracked = await follow(await post(`/dashboard/templates/${alias}`, { ...draft, track_opens: 'false', track_clicks: 'true' }));
    expect(tracked.text).toContain('<dd>opens off, clicks on</dd>');
    expect(tracked.text).toMatch(
      /<select id="[^"]+" name="track_opens"><option value="">The domain&#39;s setting<\/option><option value="true">On<\/option><option value="false" selected>Off<\/option><\/select>/,
    );
    expect((await api('GET', `/templates/${alias}`, { key: account.key })).body.template).toMatchObject({
      track_opens: false,
      track_clicks: true,
    });
    // Back to the domain's setting; a value that is not a choice is refused with the field named.
    await post(`/dashboard/templates/${alias}`, { ...draft, track_opens: '', track_clicks: '' });
    expect((await api('GET', `/templates/${alias}`, { key: account.key })).body.template).toMatchObject({
      track_opens: null,
      track_clicks: null,
    });
    const refused = await follow(await post(`/dashboard/templates/${alias}`, { ...draft, track_opens: 'sometimes' }));
    expect(refused.text).toContain('track_opens must be true, false or null');
  });

  it('adds, finds and removes a suppression; pages the list with Older and Newer', async () => {
    const address = `dash-${randomUUID().slice(0, 8)}@example.com`;
    const added = await post('/dashboard/suppressions', { email: address });
    const found = await follow(added);
    expect(found.text).toContain(`${address} is suppressed.`);
    expect(found.text).toContain(`<td id="s-`);
    const removed = await follow(await post('/dashboard/suppressions/remove', { email: address }));
    expect(removed.text).toContain(`${address} is no longer suppressed.`);
    expect((await page(`/dashboard/suppressions?email=${encodeURIComponent(address)}`)).text).toContain(`${address} is not suppressed.`);

    const many = Array.from({ length: 30 }, (_, i) => `bulk-${i}-${randomUUID().slice(0, 6)}@example.com`);
    expect((await api('POST', '/suppressions', { key: account.key, body: { emails: many } })).status).toBe(201);
    const first = await page('/dashboard/suppressions');
    expect(first.text.match(/>Remove<\/button>/g)).toHaveLength(25);
    const older = /<a href="([^"]+)" rel="next">Older<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await page(older);
    expect(second.text.match(/>Remove<\/button>/g)!.length).toBeGreaterThanOrEqual(5);
    const newer = /<a href="([^"]+)" rel="prev">Newer<\/a>/.exec(second.text)![1]!.replace(/&amp;/g, '&');
    expect(newer).toBe('/dashboard/suppressions');
  });

  it('tenants: explains when tenants are not enabled; lists tenants with status, ramp and stats when they are', async () => {
    expect((await page('/dashboard/tenants')).text).toContain('<p>Tenants are not enabled for this account');
    const withTenants = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await api('POST', '/tenants', {
      key: withTenants.key,
      body: { external_id: `cust-${randomUUID().slice(0, 6)}`, name: 'Customer <One>' },
    });
    expect(tenant.status).toBe(201);
    const own = await signIn((await newDashboardUser(withTenants)).email);
    const list = await page('/dashboard/tenants', own.cookie);
    expect(list.text).toContain(tenant.body.tenant.external_id);
    expect(list.text).toContain('Customer &lt;One&gt;');
    expect(list.text).toContain('<th scope="col">Ramp</th>');
    expect(list.text).toContain('<span class="status good">active</span>');
  });
});
