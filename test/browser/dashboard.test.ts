/**
 * The dashboard in a real headless Chromium (Debian's package, driven by playwright-core) against the
 * local cloud: the journey of issue 16's "Done when" (sign in, send a test email and watch it reach
 * delivered, add a domain and apply its DNS through the Route 53 emulator until it is verified, create
 * a webhook and replay a delivery, dry-run an automation, every page of the navigation, sign out), the
 * keyboard path through the sign-in page, and the browser's view of the session's protections (CSRF,
 * no cookie, HttpOnly/Secure/SameSite). Each page's screenshot lands in .test-data/screenshots/ (docs/dashboard/ keeps a copy).
 *
 * Two contexts, one sign-in each (the sign-in allows 30 attempts per 15 minutes per IP, and Chromium
 * always comes from 127.0.0.1).
 */
import { randomUUID } from 'node:crypto';
import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROUTE53_LOCAL_ACCESS_KEY_ID } from '../../localstack/emulators/route53';
import { api, stack } from '../integration/harness/stack';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { csrfToken, failureScreenshot, launchBrowser, newContext, newDashboardAccount, reloadUntil, screenshot, signInThroughUi, type DashboardTestUser } from './harness';

/** The main navigation's links, in order (the pages' contract), and the screenshot of each. */
const NAV = ['Emails', 'Domains', 'API keys', 'SMTP credentials', 'Webhooks', 'Suppressions', 'Tenants', 'Templates', 'Automations', 'Received', 'Imports'];
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const signOutButton = (page: Page) => page.getByRole('button', { name: 'Sign out' });
/** What a person reads there (innerText: rendered text, with breaks between blocks and cells). */
const text = (page: Page, selector = 'body') => page.locator(selector).first().innerText();

/** A request from a script in the page (the browser's cookie jar, Origin and Sec-Fetch-Site): its status and body. */
function pageFetch(page: Page, path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ({ path, init }) => {
      const response = await fetch(path, { ...init, credentials: 'same-origin' });
      return { status: response.status, text: await response.text() };
    },
    { path, init },
  );
}

describe('keyboard and the session in the browser', () => {
  let context: BrowserContext;
  let page: Page;
  let user: DashboardTestUser;

  beforeAll(async () => {
    user = await newDashboardAccount();
    context = await newContext(browser, { scriptFetch: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('the sign-in page works by keyboard alone: the skip link is the first stop, then Email, Password, Enter', async () => {
    await page.goto('/dashboard/sign-in');
    await screenshot(page, 'sign-in');
    const focused = () => page.evaluate('({ tag: document.activeElement.tagName, id: document.activeElement.id, text: document.activeElement.textContent.trim(), href: document.activeElement.getAttribute("href") })') as Promise<{ tag: string; id: string; text: string; href: string | null }>;
    const focusedIs = (label: string) => page.getByLabel(label, { exact: true }).evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);
    // The page puts the caret in Email (autofocus); the one stop before it is the skip link.
    expect(await focusedIs('Email')).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toMatchObject({ tag: 'A', text: 'Skip to main content', href: '#main' });
    await screenshot(page, 'sign-in-skip-link');
    await page.keyboard.press('Tab');
    expect(await focusedIs('Email')).toBe(true);
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    expect(await focusedIs('Password')).toBe(true);
    await page.keyboard.type(user.password);
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Sign in' });
    await Promise.all([page.waitForURL(/\/dashboard\/emails$/), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
  });

  it('on a dashboard page, Tab from the top reaches the skip link first, and it moves focus to the main content', async () => {
    await page.goto('/dashboard/emails');
    expect(await page.evaluate('document.activeElement === document.body')).toBe(true);
    await page.keyboard.press('Tab');
    const first = (await page.evaluate('({ tag: document.activeElement.tagName, text: document.activeElement.textContent.trim(), href: document.activeElement.getAttribute("href") })')) as { tag: string; text: string; href: string | null };
    expect(first).toEqual({ tag: 'A', text: 'Skip to main content', href: '#main' });
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('main');
    // The next Tab goes into the page's content, past the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.querySelector("main").contains(document.activeElement)')).toBe(true);
  });

  it('the session cookie is HttpOnly (no script sees it), Secure and SameSite=Lax', async () => {
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'svc_session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('svc_session');
  });

  it('a POST to /api/events from the page without the CSRF header (or with a wrong one) is 403; with it, 202', async () => {
    const body = JSON.stringify({ name: 'browser.csrf-check', email: 'ada@example.com' });
    const refused = await pageFetch(page, '/api/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Missing CSRF token');
    const wrong = await pageFetch(page, '/api/events', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': 'not-the-token' }, body });
    expect(wrong.status).toBe(403);
    const csrf = await csrfToken(page);
    expect((await pageFetch(page, '/api/events', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body })).status).toBe(202);
  });

  it('without the cookie (a new context): pages send the browser to sign-in, /api/* is 401', async () => {
    const stranger = await newContext(browser, { scriptFetch: true });
    try {
      const response = await stranger.request.get('/dashboard/emails', { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Femails');
      const strangerPage = await stranger.newPage();
      await strangerPage.goto('/dashboard/webhooks');
      expect(new URL(strangerPage.url()).pathname).toBe('/dashboard/sign-in');
      expect((await pageFetch(strangerPage, '/api/webhooks', { method: 'GET' })).status).toBe(401);
      expect((await pageFetch(strangerPage, '/api/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x","email":"a@example.com"}' })).status).toBe(401);
      // A form post to a page action without a session goes to sign in, changing nothing.
      expect((await stranger.request.post('/dashboard/emails/test', { form: { to: 'a@example.com', subject: 'x' }, maxRedirects: 0 })).status()).toBe(303);
    } finally {
      await stranger.close();
    }
  });
});

describe('the dashboard journey', () => {
  let context: BrowserContext;
  let page: Page;
  let user: DashboardTestUser;
  let route53: Route53Client;
  let receiver: HttpsReceiver | undefined;
  /** The journey is one path: after a step fails, the next ones fail at once (saying which) instead of timing out. */
  let broken: string | undefined;
  const step = (name: string, fn: () => Promise<void>, timeout?: number) =>
    it(
      name,
      async () => {
        if (broken) throw new Error(`not run: an earlier step of the journey failed (${broken})`);
        try {
          await fn();
        } catch (error) {
          broken = name;
          const saved = await failureScreenshot(page, name);
          if (saved && error instanceof Error) error.message += `\n(the page at ${page.url()} as it was: ${saved})`;
          throw error;
        }
      },
      timeout,
    );

  beforeAll(async () => {
    user = await newDashboardAccount();
    context = await newContext(browser);
    page = await context.newPage();
    route53 = new Route53Client({
      region: 'us-east-1',
      endpoint: stack().info.env.AWS_ENDPOINT_URL_ROUTE_53,
      credentials: { accessKeyId: ROUTE53_LOCAL_ACCESS_KEY_ID, secretAccessKey: 'local' },
      maxAttempts: 1,
    });
  });
  afterAll(async () => {
    route53?.destroy();
    await receiver?.close();
    await context?.close();
  });

  step('signs in through the form and lands on Emails, with the main navigation and Sign out', async () => {
    await signInThroughUi(page, user);
    await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
    const links = await mainNav(page).getByRole('link').allTextContents();
    expect(links.map((link) => link.trim())).toEqual(NAV);
    await signOutButton(page).waitFor();
  });

  step(
    'sends a test email from the Emails page and watches its timeline reach delivered',
    async () => {
      const subject = `Browser test ${randomUUID().slice(0, 8)}`;
      await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
      // The contract's form "Send a test email": the page names its section (a region) with that heading.
      const form = page.getByRole('form', { name: 'Send a test email' }).or(page.getByRole('region', { name: 'Send a test email' }));
      await form.getByLabel('To', { exact: true }).fill(user.account.email);
      await form.getByLabel('Subject', { exact: true }).fill(subject);
      await Promise.all([page.waitForURL(/\/dashboard\/emails\/[^/?#]+$/), form.getByRole('button', { name: 'Send test email' }).click()]);

      await page.getByRole('heading', { level: 1, name: subject }).waitFor();
      await screenshot(page, 'email-sending');
      const timeline = page.getByRole('list', { name: 'Timeline' });
      // The page refreshes itself every 2 s while the email is on its way; reloading as well does no harm.
      await reloadUntil(page, async () => /\bdelivered\b/.test(await timeline.innerText()), 'the timeline to show delivered');
      const preview = page.locator('iframe[title="Email preview"]');
      expect(await preview.getAttribute('sandbox')).toBe('');
      expect(await preview.contentFrame().locator('body').textContent()).toContain('sent from the dashboard');
      await page.getByRole('heading', { level: 2, name: 'Headers' }).waitFor();
      expect(await text(page, 'main')).toContain(`Subject: ${subject}`);
      await screenshot(page, 'email');

      const listed = await api('GET', `/emails/${page.url().split('/').pop()}`, { key: user.account.key });
      expect(listed.body.email).toMatchObject({ subject, status: 'delivered', to: [user.account.email] });
    },
    60_000,
  );

  step(
    'adds a domain, applies its DNS records through the Route 53 emulator and sees it verified',
    async () => {
      const name = `b${randomUUID().slice(0, 8)}.browser-test.test`;
      await route53.send(new CreateHostedZoneCommand({ Name: name, CallerReference: randomUUID() }));

      await Promise.all([page.waitForURL(/\/dashboard\/domains$/), mainNav(page).getByRole('link', { name: 'Domains', exact: true }).click()]);
      await page.getByLabel('Domain name').fill(name);
      await Promise.all([page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/), page.getByRole('button', { name: 'Add domain' }).click()]);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.getByRole('button', { name: 'Verify' }).waitFor();
      const domainId = decodeURIComponent(new URL(page.url()).pathname.split('/')[3] ?? '');
      expect((await api('GET', `/domains/${domainId}`, { key: user.account.key })).body.domain).toMatchObject({ name, status: 'pending' });
      await screenshot(page, 'domain-new');

      await page.getByLabel('DNS host').selectOption('route53');
      await page.getByLabel('Access key ID').fill(ROUTE53_LOCAL_ACCESS_KEY_ID);
      await page.getByLabel('Secret access key').fill(`any-secret-${randomUUID()}`);
      await page.getByRole('button', { name: 'Apply DNS records' }).click();
      await page.getByRole('heading', { level: 2, name: 'Apply results' }).waitFor();
      const results = page.getByRole('table', { name: 'What was written, per record' });
      expect(await results.innerText()).toMatch(/\bcreated\b/);
      // The apply verifies; its answer (the page, rendered for the POST) shows the domain's status word.
      const verified = async () => /Status:\s*verified/i.test(await text(page, 'main'));
      if (!(await verified())) {
        // The host had not settled yet: Verify again (a redirect to the page, which is safe to reload).
        await page.getByRole('button', { name: 'Verify' }).click();
        await reloadUntil(page, verified, 'the domain to show verified', 20_000);
      }

      expect((await api('GET', `/domains/${domainId}`, { key: user.account.key })).body.domain).toMatchObject({ name, status: 'verified' });
      await screenshot(page, 'domain-applied');
    },
    60_000,
  );

  step('creates an API key on its page (the secret shown once) that then authenticates', async () => {
    await Promise.all([page.waitForURL(/\/dashboard\/api-keys$/), mainNav(page).getByRole('link', { name: 'API keys', exact: true }).click()]);
    await page.getByLabel('Name', { exact: true }).fill('browser test');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = ((await page.locator('[aria-label="API key secret"]').textContent()) ?? '').trim();
    expect(secret).toMatch(/^svc_/);
    await screenshot(page, 'api-key-created');
    expect((await api('GET', '/domains', { key: secret })).status).toBe(200);
  });

  step(
    'creates a webhook (the secret shown once), and replays a failed delivery from its page',
    async () => {
      // A receiver that fails (503) until told otherwise: the delivery fails after its retries, so it can
      // be replayed (only a failed or cancelled delivery can be). The stack trusts the test CA.
      receiver = await startHttpsReceiver({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });
      receiver.setResponder(() => ({ status: 503, body: 'down for the test' }));
      const url = `${receiver.url}/${randomUUID().slice(0, 8)}`;

      await Promise.all([page.waitForURL(/\/dashboard\/webhooks$/), mainNav(page).getByRole('link', { name: 'Webhooks', exact: true }).click()]);
      await page.getByLabel('Endpoint URL').fill(url);
      for (const checkbox of await page.getByRole('checkbox').all()) {
        const name = (await checkbox.getAttribute('value')) ?? '';
        if (name === 'email.delivered') await checkbox.check();
        else await checkbox.uncheck();
      }
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const secret = ((await page.locator('[aria-label="Signing secret"]').textContent()) ?? '').trim();
      expect(secret).toMatch(/^whsec_/);
      await screenshot(page, 'webhook-created');

      const listed = await api('GET', '/webhooks', { key: user.account.key });
      const webhook = (listed.body.webhooks as { id: string; url: string; events: string[] }[]).find((candidate) => candidate.url === url);
      expect(webhook).toMatchObject({ events: ['email.delivered'] });

      // A delivery: a test event through the API (a full-access key made by the createAccount use case).
      const sent = await api('POST', '/emails/test', { key: user.account.key, body: { event: 'email.delivered' } });
      expect(sent.status).toBe(200);

      await page.goto(`/dashboard/webhooks/${webhook!.id}`);
      const deliveries = page.getByRole('region', { name: 'Deliveries' });
      // 1 try + 5 retries (1 s apart in tests), then failed.
      await reloadUntil(page, async () => /\bfailed\b/.test(await deliveries.innerText()), 'the delivery to fail', 40_000);
      await screenshot(page, 'webhook');
      await Promise.all([page.waitForURL(/\/dashboard\/webhooks\/[^/]+\/deliveries\/[^/?#]+$/), deliveries.getByRole('link', { name: 'View' }).first().click()]);
      expect(await text(page, 'main')).toContain('down for the test');
      await screenshot(page, 'webhook-delivery-failed');

      receiver.setResponder(() => ({ status: 204 }));
      const before = receiver.requests.length;
      await page.getByRole('button', { name: 'Replay' }).click();
      await page.getByText('Replayed').first().waitFor();
      await screenshot(page, 'webhook-delivery-replay');
      await receiver.waitForRequests(before + 1, 15_000);
      await reloadUntil(page, async () => /Status\s*succeeded/.test(await text(page, 'main')), 'the replayed delivery to succeed', 20_000);
      await screenshot(page, 'webhook-delivery-replayed');
    },
    90_000,
  );

  step('dry-runs a draft automation from its page and shows the trace', async () => {
    const created = await api('POST', '/automations', {
      key: user.account.key,
      body: {
        name: 'Browser welcome (draft)',
        trigger: { event: 'browser.signup' },
        steps: [
          { key: 'is-free', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'free' },
          { key: 'wait', type: 'delay', duration: '2 days' },
          { key: 'welcome', type: 'send_email', from: `hello@${stack().services.sandboxDomain}`, subject: 'Welcome, {{event.data.first_name}}!', text: 'Hi {{event.data.first_name}}' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.automation.id as string;

    await page.goto(`/dashboard/automations/${id}`);
    await page.getByLabel('Event name').fill('browser.signup');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('User ID').fill('user_42');
    await page.getByLabel('Event data (JSON)').fill('{"plan": "free", "first_name": "Ada"}');
    await page.getByRole('button', { name: 'Dry run' }).click();
    const trace = page.getByRole('region', { name: 'Dry run trace' });
    await page.getByRole('heading', { level: 2, name: 'Dry run trace' }).waitFor();
    const traced = await trace.textContent() ?? '';
    expect(traced).toContain('Welcome, Ada!');
    expect(traced).toMatch(/completed/);
    // Open the send step's output (the email it would have sent) for the screenshot.
    await trace.getByRole('listitem').filter({ hasText: 'welcome' }).getByText('Output').click();
    await screenshot(page, 'automation-dry-run');
    // Nothing ran for real.
    const runs = await api('GET', `/automations/${id}/runs`, { key: user.account.key });
    expect(runs.status).toBe(200);
    expect(runs.body.runs).toEqual([]);
  });

  step('every page of the main navigation opens (and is screenshotted)', async () => {
    for (const name of NAV) {
      const link = mainNav(page).getByRole('link', { name, exact: true });
      const path = await link.getAttribute('href');
      await Promise.all([page.waitForURL((url) => url.pathname === path), link.click()]);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      expect(await mainNav(page).getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
      await screenshot(page, `page-${slug(name)}`);
      if (name === 'Emails') {
        // The charts: sends, and delivery, bounce and complaint rates per day.
        await page.getByRole('heading', { level: 2, name: 'Activity' }).evaluate((heading) => (heading as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'start' }));
        await screenshot(page, 'emails-activity');
      }
    }
  });

  step('signs out: back to sign-in, and the pages send the browser there again', async () => {
    await Promise.all([page.waitForURL(/\/dashboard\/sign-in/), signOutButton(page).click()]);
    expect((await context.cookies()).find((cookie) => cookie.name === 'svc_session')).toBeUndefined();
    await page.goto('/dashboard/emails');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await page.request.get('/api/webhooks')).status()).toBe(401);
  });
});
