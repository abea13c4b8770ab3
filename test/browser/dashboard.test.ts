/**
 * The dashboard in a real headless Chromium (Debian's package, driven by playwright-core) against the
 * local cloud: the journey of issue 16's "Done when" (sign in, send a test email and watch it reach
 * delivered, add a domain and apply its DNS through the Route 53 emulator until it is verified, create
 * a webhook and replay a delivery, dry-run an automation, every page of the navigation, sign out), the
 * keyboard path through the sign-in page, and the browser's view of the session's protections (CSRF,
 * no cookie, HttpOnly/Secure/SameSite, another origin); the session doors from the pages with their
 * Content-Security-Policy on (a page script reaching /api/events with its CSRF token; the dry run and
 * Replay through the doors, their refusals shown in the page) and the same forms without script. Each
 * page's screenshot lands in .test-data/screenshots/ (docs/dashboard/ keeps a copy).
 *
 * Four contexts sign in, once each (the sign-in allows 30 attempts per 15 minutes per IP, and Chromium
 * always comes from 127.0.0.1).
 */
import { randomUUID } from 'node:crypto';
import { CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ROUTE53_LOCAL_ACCESS_KEY_ID } from '#localstack/emulators/route53';
import { api, stack, waitFor } from '../integration/harness/stack';
import { waitWithTask } from '../integration/harness/tasks';
import { publish } from '../integration/harness/dns';
import { verifiedDomain } from '../integration/harness/domains';
import { mxTransport, receivingDomain } from '../integration/harness/inbound';
import { FIXTURE_DOMAIN, FIXTURE_SELECTOR, source } from '../fixtures/dmarc/build';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import {
  baseUrl,
  failureScreenshot,
  launchBrowser,
  newContext,
  newDashboardAccount,
  pageCsrfToken,
  reloadUntil,
  screenshot,
  signInThroughUi,
  type DashboardTestUser,
} from './harness';
import { startOtherOrigin, type OtherOrigin } from './other-origin';

/** The main navigation's links, in order (the pages' contract), and the screenshot of each. */
const NAV = [
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
];
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

/**
 * A request from a script in the page, held to the page's Content-Security-Policy (the browser's cookie
 * jar, Origin and Sec-Fetch-Site): its status and body, or the browser's refusal (`error`: the fetch
 * rejected; `blocked`: the CSP directive that refused it, when it was the CSP).
 */
type PageFetchResult = { status: number; text: string } | { error: string; blocked: string | null };
function pageFetch(
  page: Page,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string; credentials?: 'same-origin' | 'include' },
): Promise<PageFetchResult> {
  return page.evaluate(
    async ({ url, init }) => {
      type Listener = (event: { effectiveDirective: string }) => void;
      const doc = (
        globalThis as unknown as { document: { addEventListener(type: string, listener: Listener, options: { once: boolean }): void } }
      ).document;
      // A refusal by the CSP fires securitypolicyviolation, a task of its own beside the fetch's rejection.
      const violation = new Promise<string>((resolve) =>
        doc.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), { once: true }),
      );
      try {
        const response = await fetch(url, { credentials: 'same-origin', ...init });
        return { status: response.status, text: await response.text() };
      } catch (error) {
        // Its event as soon as it comes; none comes for another refusal (CORS), told apart after a second.
        const blocked = await Promise.race([violation, new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000))]);
        return { error: String(error), blocked };
      }
    },
    { url, init },
  );
}

/** The status of a fetch that must have reached the server. */
function statusOf(result: PageFetchResult): number {
  if ('error' in result) throw new Error(`the fetch did not reach the server: ${result.error} (CSP: ${result.blocked ?? 'not involved'})`);
  return result.status;
}

/** The webhook URLs the account has (through its API key, not the browser). */
async function webhookUrls(key: string): Promise<string[]> {
  const listed = await api('GET', '/webhooks?limit=100', { key });
  expect(listed.status).toBe(200);
  return (listed.body.webhooks as { url: string }[]).map((webhook) => webhook.url);
}

describe('keyboard and the session in the browser', () => {
  let context: BrowserContext;
  let page: Page;
  let user: DashboardTestUser;

  beforeAll(async () => {
    user = await newDashboardAccount();
    context = await newContext(browser);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('the sign-in page works by keyboard alone: the skip link is the first stop, then Email, Password, Enter', async () => {
    await page.goto('/dashboard/sign-in');
    await screenshot(page, 'sign-in');
    const focused = () =>
      page.evaluate(
        '({ tag: document.activeElement.tagName, id: document.activeElement.id, text: document.activeElement.textContent.trim(), href: document.activeElement.getAttribute("href") })',
      ) as Promise<{ tag: string; id: string; text: string; href: string | null }>;
    const focusedIs = (label: string) =>
      page
        .getByLabel(label, { exact: true })
        .evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);
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
    const first = (await page.evaluate(
      '({ tag: document.activeElement.tagName, text: document.activeElement.textContent.trim(), href: document.activeElement.getAttribute("href") })',
    )) as { tag: string; text: string; href: string | null };
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

  it("the dashboard's CSP is on in the browser: connect-src 'self' lets a page script reach its own origin only", async () => {
    const response = await page.goto('/dashboard/webhooks');
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "script-src 'self'", "connect-src 'self'"]));
    // The same server under another name is another origin: the browser refuses the fetch before it leaves.
    const elsewhere = await pageFetch(page, `${baseUrl().replace('127.0.0.1', 'localhost')}/dashboard/sign-in`, { method: 'GET' });
    expect(elsewhere).toEqual({ error: expect.stringContaining('Failed to fetch'), blocked: 'connect-src' });
    // Its own origin: through.
    expect(statusOf(await pageFetch(page, '/api/webhooks', { method: 'GET' }))).toBe(200);
  });

  it('a script on a signed-in page reaches POST /api/events with the CSRF token the page holds (202); without it, or with a wrong one, 403', async () => {
    await page.goto('/dashboard/emails');
    const body = JSON.stringify({ name: 'browser.csrf-check', email: 'ada@example.com' });
    const refused = await pageFetch(page, '/api/events', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(statusOf(refused)).toBe(403);
    expect((refused as { text: string }).text).toContain('Missing CSRF token');
    const wrong = await pageFetch(page, '/api/events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': 'not-the-token' },
      body,
    });
    expect(statusOf(wrong)).toBe(403);
    // The script reads the token from the page, as the dashboard's own script does (a form's csrf_token field).
    const accepted = await page.evaluate(async (body) => {
      const doc = (globalThis as unknown as { document: { querySelector(selector: string): { value: string } | null } }).document;
      const token = doc.querySelector('input[name="csrf_token"]')!.value;
      const response = await fetch('/api/events', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body,
      });
      return { status: response.status, answer: (await response.json()) as { event: { name: string } } };
    }, body);
    expect(accepted.status).toBe(202);
    expect(accepted.answer.event).toMatchObject({ name: 'browser.csrf-check' });
  });

  describe('from another origin of the same site (127.0.0.1 on another port: the browser sends it the session cookie)', () => {
    let other: OtherOrigin;
    let otherPage: Page;
    beforeAll(async () => {
      other = await startOtherOrigin();
      otherPage = await context.newPage();
      await otherPage.goto(`${other.origin}/`);
    });
    afterAll(async () => {
      await otherPage?.close();
      await other?.close();
    });

    it("a script's JSON POST with the session's real CSRF token never reaches the door: the browser's CORS preflight is refused, nothing is created", async () => {
      await page.goto('/dashboard/webhooks');
      const token = await pageCsrfToken(page);
      const url = `https://127.0.0.1:1/cross-origin-${randomUUID().slice(0, 8)}`;
      const forged = await pageFetch(otherPage, `${baseUrl()}/api/webhooks`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ url }),
      });
      expect(forged).toEqual({ error: expect.stringContaining('Failed to fetch'), blocked: null });
      expect(await webhookUrls(user.account.key)).not.toContain(url);
      // The same request from the dashboard's own page creates it (so the forged one was refused, not malformed).
      const own = await pageFetch(page, '/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify({ url }),
      });
      expect(statusOf(own)).toBe(200);
      expect(await webhookUrls(user.account.key)).toContain(url);
    });

    it('a form it posts to the door (cookie sent, the real CSRF token in the form) is refused 403 by the origin check', async () => {
      await page.goto('/dashboard/webhooks');
      const token = await pageCsrfToken(page);
      const url = `https://127.0.0.1:1/cross-origin-form-${randomUUID().slice(0, 8)}`;
      // The classic forgery: a form on the other site, posted by the browser as a navigation.
      await otherPage.evaluate(
        ({ action, token, url }) => {
          type El = { setAttribute(name: string, value: string): void; append(...nodes: unknown[]): void };
          const doc = (globalThis as unknown as { document: { createElement(tag: string): El; body: El } }).document;
          const form = doc.createElement('form');
          form.setAttribute('method', 'post');
          form.setAttribute('action', action);
          for (const [name, value] of Object.entries({ csrf_token: token, url })) {
            const field = doc.createElement('input');
            field.setAttribute('type', 'hidden');
            field.setAttribute('name', name);
            field.setAttribute('value', value);
            form.append(field);
          }
          const button = doc.createElement('button');
          button.setAttribute('type', 'submit');
          button.append('Claim your prize');
          form.append(button);
          doc.body.append(form);
        },
        { action: `${baseUrl()}/api/webhooks`, token, url },
      );
      const [response] = await Promise.all([
        otherPage.waitForResponse(`${baseUrl()}/api/webhooks`),
        otherPage.getByRole('button', { name: 'Claim your prize' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect((await response.request().allHeaders()).cookie).toContain('svc_session=');
      expect(await response.text()).toContain('Sec-Fetch-Site is \\"same-site\\"');
      expect(await webhookUrls(user.account.key)).not.toContain(url);
    });
  });

  it('without the cookie (a new context): pages send the browser to sign-in, /api/* is 401', async () => {
    const stranger = await newContext(browser);
    try {
      const response = await stranger.request.get('/dashboard/emails', { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      expect(response.headers().location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Femails');
      const strangerPage = await stranger.newPage();
      await strangerPage.goto('/dashboard/webhooks');
      expect(new URL(strangerPage.url()).pathname).toBe('/dashboard/sign-in');
      expect(statusOf(await pageFetch(strangerPage, '/api/webhooks', { method: 'GET' }))).toBe(401);
      expect(
        statusOf(
          await pageFetch(strangerPage, '/api/events', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"name":"x","email":"a@example.com"}',
          }),
        ),
      ).toBe(401);
      // A form post to a page action without a session goes to sign in, changing nothing.
      expect(
        (await stranger.request.post('/dashboard/emails/test', { form: { to: 'a@example.com', subject: 'x' }, maxRedirects: 0 })).status(),
      ).toBe(303);
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
  /** The webhook made early in the journey (its delivery failing meanwhile), replayed further on. */
  let webhookId: string | undefined;
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

  // The webhook is made early in the journey: its delivery to a failing endpoint goes through its retries (1 s apart in
  // tests) while the domain steps run, and is replayed from its page further on.
  step('creates a webhook on its page (the secret shown once); its first delivery goes to an endpoint that fails', async () => {
    // A receiver that fails (503) until told otherwise: the delivery fails after its retries, so it can
    // be replayed (only a failed or cancelled delivery can be). The stack trusts the test CA.
    receiver = await startHttpsReceiver({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });
    receiver.setResponder(() => ({ status: 503, body: 'down for the test' }));
    const url = `${receiver.url}/${randomUUID().slice(0, 8)}`;

    await Promise.all([
      page.waitForURL(/\/dashboard\/webhooks$/),
      mainNav(page).getByRole('link', { name: 'Webhooks', exact: true }).click(),
    ]);
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
    webhookId = webhook!.id;

    // A delivery: a test event through the API (a full-access key made by the createAccount use case).
    const sent = await api('POST', '/emails/test', { key: user.account.key, body: { event: 'email.delivered' } });
    expect(sent.status).toBe(200);
  });

  step(
    'adds a domain, applies its DNS records through the Route 53 emulator and sees it verified',
    async () => {
      const name = `b${randomUUID().slice(0, 8)}.browser-test.test`;
      await route53.send(new CreateHostedZoneCommand({ Name: name, CallerReference: randomUUID() }));

      await Promise.all([
        page.waitForURL(/\/dashboard\/domains$/),
        mainNav(page).getByRole('link', { name: 'Domains', exact: true }).click(),
      ]);
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

  step(
    "checks the domain's health now (its findings, the records to publish) and validates addresses",
    async () => {
      await page.getByRole('button', { name: 'Check now' }).click();
      await page.getByText(/Checked: \d+ high and \d+ low findings open\./).waitFor();
      const findings = page.getByRole('table', { name: /^Health findings of / });
      // The records Apply DNS wrote: DMARC monitors only (p=none), no MTA-STS, TLS-RPT or BIMI record yet.
      expect(await findings.innerText()).toMatch(/dmarc_policy_none[\s\S]*mta_sts_missing/);
      // The Health section at the top of the viewport.
      await page.locator('#health-heading').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'domain-health');

      // A recipients' domain with mail hosts in the DNS emulator; the others have none (no upstream DNS here).
      const shop = `shop-${randomUUID().slice(0, 8)}.test`;
      await publish(shop, 'MX', [`10 mx1.${shop}`, `20 mx2.${shop}`]);
      await page.goto(`${baseUrl()}/dashboard/validations`);
      await page
        .getByLabel('Addresses')
        .fill(
          [`jane@${shop}`, `sales@${shop}`, 'jane@gmial.com', 'postmaster@mailinator.com', 'not an address', 'ann@nowhere.invalid'].join(
            '\n',
          ),
        );
      await page.getByRole('button', { name: 'Validate' }).click();
      const results = page.getByRole('table', { name: 'Validation results, in the order given' });
      await results.waitFor();
      expect(await results.innerText()).toMatch(
        /valid[\s\S]*role_address[\s\S]*possible_typo[\s\S]*disposable_domain[\s\S]*invalid_syntax[\s\S]*no_mail_host/,
      );
      await page.getByText('Checked 6 addresses: 1 valid, 1 risky, 4 invalid.').waitFor();
      await screenshot(page, 'validations');
    },
    60_000,
  );

  step(
    "shows a domain's DMARC aggregate reports: turned on from its page, then the receivers' figures",
    async () => {
      const inbox = await receivingDomain(user.account);
      await page.goto(`${baseUrl()}/dashboard/domains/${inbox.id}`);
      await Promise.all([
        page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/),
        page.getByRole('button', { name: 'Read DMARC reports' }).click(),
      ]);
      const address = `dmarc@${inbox.subdomain}`;
      await page.getByText(`DMARC reports are read at ${address}`).waitFor();
      // The reports of four receivers (test/fixtures/dmarc/), moved to three days ago (the page shows the last
      // 30 days), mailed to the address through the MX.
      const selector = (await api('GET', `/domains/${inbox.id}`, { key: user.account.key })).body.domain.records
        .find((record: { purpose: string }) => record.purpose === 'dkim')
        .name.split('._domainkey.')[0];
      const shift = Math.floor(Date.now() / 86_400_000 - 3) * 86_400 - Date.parse('2026-11-01T00:00:00Z') / 1000;
      const report = (name: string) =>
        Buffer.from(
          source(name)
            .split(FIXTURE_DOMAIN)
            .join(inbox.name)
            .split(FIXTURE_SELECTOR)
            .join(selector)
            .replace(
              /<((?:\w+:)?(?:begin|end))>(\d+)<\/\1>/g,
              (_all, tag: string, epoch: string) => `<${tag}>${Number(epoch) + shift}</${tag}>`,
            ),
        );
      for (const names of [['google.xml'], ['outlook.xml', 'yahoo.xml'], ['smallisp.xml']]) {
        await mxTransport().sendMail({
          envelope: { from: 'noreply-dmarc-support@reports.example-receiver.test', to: [address] },
          from: 'noreply-dmarc-support@reports.example-receiver.test',
          to: address,
          subject: 'Report domain',
          text: 'This is an aggregate report.',
          attachments: names.map((name) => ({ filename: name, content: report(name), contentType: 'text/xml' })),
        });
      }
      await waitFor(
        async () => (await api('GET', `/domains/${inbox.id}/dmarc`, { key: user.account.key })).body.totals.messages === 312,
        'the four reports counted',
      );
      await page.reload();
      await page.getByText(/312 messages, 91\.0% passed DMARC/).waitFor();
      await page.locator('#dmarc-heading').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'domain-dmarc');
    },
    60_000,
  );

  step(
    "hosts a receiving subdomain's MTA-STS policy from its page: the certificate's record listed, then the policy served",
    async () => {
      const inbox = await receivingDomain(user.account);
      const hosting = async () => (await api('GET', `/domains/${inbox.id}/mta-sts`, { key: user.account.key })).body;
      await page.goto(`${baseUrl()}/dashboard/domains/${inbox.id}`);
      await page.locator('#mta-sts-mode').selectOption('testing');
      await Promise.all([
        page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/),
        page.getByRole('button', { name: 'Host an MTA-STS policy' }).click(),
      ]);
      await page.getByText('MTA-STS policy (testing) saved').waitFor();
      // The domain-health task requests the certificate and lists its validation record within seconds: published, then checked now.
      const listed = await waitWithTask(
        'domain-health',
        async () => (await hosting()).records.find((record: { purpose: string }) => record.purpose === 'certificate_validation'),
        'the certificate validation record',
      );
      await publish(listed.name, 'CNAME', [listed.value]);
      await page.reload();
      await Promise.all([
        page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/),
        page.getByRole('button', { name: 'Save and check now' }).click(),
      ]);
      await waitWithTask('domain-health', async () => (await hosting()).status === 'pending_dns', 'the policy served');
      await page.reload();
      await page.getByText('The policy is served; publish the policy_host CNAME').waitFor();
      await page.locator('#mta-sts-heading').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'domain-mta-sts');
    },
    60_000,
  );

  step(
    "sets up a domain's link domain from its page: the certificate's record listed, then the host served and its CNAME to publish",
    async () => {
      const linked = await verifiedDomain(user.account);
      const linkDomain = async () => (await api('GET', `/domains/${linked.id}/link-domain`, { key: user.account.key })).body;
      await page.goto(`${baseUrl()}/dashboard/domains/${linked.id}`);
      await Promise.all([
        page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/),
        page.getByRole('button', { name: 'Set up a link domain' }).click(),
      ]);
      await page.getByText(`Link domain links.${linked.name} (pending certificate)`).waitFor();
      // The domain-health task requests the certificate and lists its validation record within seconds: published, then checked now.
      const listed = await waitWithTask(
        'domain-health',
        async () => (await linkDomain()).records.find((record: { purpose: string }) => record.purpose === 'certificate_validation'),
        'the certificate validation record',
      );
      await publish(listed.name, 'CNAME', [listed.value]);
      await page.reload();
      await Promise.all([
        page.waitForURL(/\/dashboard\/domains\/[^/?#]+$/),
        page.getByRole('button', { name: 'Check the link domain' }).click(),
      ]);
      await waitWithTask('domain-health', async () => (await linkDomain()).status === 'pending_dns', 'the link domain served');
      await page.reload();
      await page.getByText('The link domain is served; publish the link_host CNAME').waitFor();
      await page.locator('#link-domain-heading').evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
      await screenshot(page, 'domain-link-domain');
    },
    60_000,
  );

  step('creates an API key on its page (the secret shown once) that then authenticates', async () => {
    await Promise.all([
      page.waitForURL(/\/dashboard\/api-keys$/),
      mainNav(page).getByRole('link', { name: 'API keys', exact: true }).click(),
    ]);
    await page.getByLabel('Name', { exact: true }).fill('browser test');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = ((await page.locator('[aria-label="API key secret"]').textContent()) ?? '').trim();
    expect(secret).toMatch(/^svc_/);
    await screenshot(page, 'api-key-created');
    expect((await api('GET', '/domains', { key: secret })).status).toBe(200);
  });

  step(
    "replays a failed delivery from the webhook's page",
    async () => {
      await page.goto(`/dashboard/webhooks/${webhookId}`);
      const deliveries = page.getByRole('region', { name: 'Deliveries' });
      // 1 try + 5 retries (1 s apart in tests), then failed.
      await reloadUntil(page, async () => /\bfailed\b/.test(await deliveries.innerText()), 'the delivery to fail', 40_000);
      await screenshot(page, 'webhook');
      await Promise.all([
        page.waitForURL(/\/dashboard\/webhooks\/[^/]+\/deliveries\/[^/?#]+$/),
        deliveries.getByRole('link', { name: 'View' }).first().click(),
      ]);
      expect(await text(page, 'main')).toContain('down for the test');
      await screenshot(page, 'webhook-delivery-failed');

      receiver!.setResponder(() => ({ status: 204 }));
      const before = receiver!.requests.length;
      // The page script sends Replay to the session door (CSP on): the page stays, and says so.
      const deliveryPage = page.url();
      const [door] = await Promise.all([
        page.waitForResponse(
          (response) =>
            response.request().method() === 'POST' &&
            new URL(response.url()).pathname === `/api${new URL(deliveryPage).pathname.slice('/dashboard'.length)}/replay`,
        ),
        page.getByRole('button', { name: 'Replay' }).click(),
      ]);
      expect(door.status()).toBe(202);
      expect(door.request().headers()['x-csrf-token']).toBe(await pageCsrfToken(page));
      // Said right below the button (the script's message region), not at the top of the page.
      await page.locator('.actions + .flash').getByText('Replayed: the delivery is queued again.').waitFor();
      expect(page.url()).toBe(deliveryPage);
      // The delivery's status, from the door's answer (no longer "failed").
      expect(await page.locator('#delivery-status').innerText()).not.toMatch(/failed/);
      await screenshot(page, 'webhook-delivery-replay');
      await receiver!.waitForRequests(before + 1, 15_000);
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
          {
            key: 'welcome',
            type: 'send_email',
            from: `hello@${stack().services.sandboxDomain}`,
            subject: 'Welcome, {{event.data.first_name}}!',
            text: 'Hi {{event.data.first_name}}',
          },
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
    // The page script sends the dry run to the session door POST /api/events (CSP on) and draws the trace in the page.
    const [door] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/events'),
      page.getByRole('button', { name: 'Dry run' }).click(),
    ]);
    expect(door.status()).toBe(200);
    expect(door.request().postDataJSON()).toEqual({
      name: 'browser.signup',
      email: 'ada@example.com',
      user_id: 'user_42',
      data: { plan: 'free', first_name: 'Ada' },
      dry_run: true,
      automation_id: id,
    });
    const trace = page.getByRole('region', { name: 'Dry run trace' });
    await page.getByRole('heading', { level: 2, name: 'Dry run trace' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/automations/${id}`);
    await page
      .getByRole('region', { name: 'Dry run', exact: true })
      .getByText('Dry run finished: its trace is shown above the steps.')
      .waitFor();
    // Focus moves to the trace (keyboard and screen reader users land on it).
    expect(await page.evaluate('document.activeElement.id')).toBe('trace-heading');
    const traced = (await trace.textContent()) ?? '';
    expect(traced).toContain('Welcome, Ada!');
    expect(traced).toMatch(/completed/);
    // Open the send step's output (the email it would have sent) for the screenshot, taken from the top as before.
    await trace.getByRole('listitem').filter({ hasText: 'welcome' }).getByText('Output').click();
    await page.evaluate('window.scrollTo(0, 0)');
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
        await page
          .getByRole('heading', { level: 2, name: 'Activity' })
          .evaluate((heading) => (heading as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ block: 'start' }));
        await screenshot(page, 'emails-activity');
      }
    }
  });

  step('signs out: back to sign-in, and the pages send the browser there again', async () => {
    await Promise.all([page.waitForURL(/\/dashboard\/sign-in/), signOutButton(page).click()]);
    expect((await context.cookies()).find((cookie) => cookie.name === 'svc_session')).toBeUndefined();
    await page.goto('/dashboard/emails');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect((await page.request.get('/api/webhooks')).status()).toBe(401);
  });

  step('signs in again through the local OpenID provider: its login form, then back on Emails as the same member', async () => {
    await page.goto('/dashboard/sign-in');
    await screenshot(page, 'sign-in-oidc');
    await page.getByRole('link', { name: 'Sign in with the local OpenID provider' }).click();
    // The provider's own page (oidc-provider's development login form, on its port): the login is the email.
    await page.locator('input[name="login"]').waitFor();
    expect(new URL(page.url()).pathname.startsWith('/dashboard')).toBe(false);
    await page.locator('input[name="login"]').fill(user.email.toUpperCase());
    await page.locator('input[name="password"]').fill('the local provider checks none');
    await Promise.all([page.waitForURL(/\/dashboard\/emails(\?|$)/), page.locator('button[type="submit"]').first().click()]);
    await page.getByRole('heading', { level: 1, name: 'Emails' }).waitFor();
    expect((await context.cookies()).find((cookie) => cookie.name === 'svc_session')).toBeDefined();
    expect((await page.request.get('/dashboard/session')).status()).toBe(200);
    expect(((await (await page.request.get('/dashboard/session')).json()) as { user: { email: string } }).user.email).toBe(
      user.email.toLowerCase(),
    );
  });
});

describe("the doors' actions: refusals shown in the page, and the same forms without script", () => {
  let user: DashboardTestUser;
  let receiver: HttpsReceiver;
  let automationId: string;
  /** A delivery that succeeded: replaying it is refused (409), the same way through the door and the form. */
  let deliveryPath: string;

  beforeAll(async () => {
    user = await newDashboardAccount();
    receiver = await startHttpsReceiver({ certFile: process.env.TEST_WEBHOOK_CERT_FILE!, keyFile: process.env.TEST_WEBHOOK_KEY_FILE! });
    receiver.setResponder(() => ({ status: 204 }));
    const webhook = await api('POST', '/webhooks', {
      key: user.account.key,
      body: { url: `${receiver.url}/ok`, events: ['email.delivered'] },
    });
    expect(webhook.status).toBe(200);
    const webhookId = webhook.body.webhook.id as string;
    expect((await api('POST', '/emails/test', { key: user.account.key, body: { event: 'email.delivered' } })).status).toBe(200);
    const deliveryId = await waitFor(
      async () => {
        const list = await api('GET', `/webhooks/${webhookId}/deliveries`, { key: user.account.key });
        return (list.body.deliveries as { id: string; status: string }[]).find((delivery) => delivery.status === 'succeeded')?.id;
      },
      'a succeeded delivery',
      30_000,
      250,
    );
    deliveryPath = `/dashboard/webhooks/${webhookId}/deliveries/${deliveryId}`;
    const created = await api('POST', '/automations', {
      key: user.account.key,
      body: {
        name: 'Browser doors (draft)',
        trigger: { event: 'browser.doors' },
        steps: [
          {
            key: 'welcome',
            type: 'send_email',
            from: `hello@${stack().services.sandboxDomain}`,
            subject: 'Hi {{event.data.first_name}}',
            text: 'Hi',
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    automationId = created.body.automation.id as string;
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** An error the page shows: the page's flash (a form's action) or the message region the script adds after a door's form. */
  const alert = (page: Page) => page.locator('.flash [role="alert"]');

  /** A context signed in as the user (script on or off), and the requests (method and path) its pages send to /api/*. */
  async function signedInContext(
    user: DashboardTestUser,
    options: { script?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page; doorRequests: string[] }> {
    const context = await newContext(browser, options);
    const page = await context.newPage();
    const doorRequests: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/api/')) doorRequests.push(`${request.method()} ${path}`);
    });
    await signInThroughUi(page, user);
    return { context, page, doorRequests };
  }
  /** The message region right after the dry run form, and after the delivery page's actions (the page script's). */
  const dryRunAlert = (page: Page) =>
    page.getByRole('region', { name: 'Dry run', exact: true }).locator('form[data-door] + .flash [role="alert"]');
  const replayAlert = (page: Page) => page.locator('.actions + .flash [role="alert"]');

  describe('with script (CSP on)', () => {
    let context: BrowserContext;
    let page: Page;
    /** Every request the page sent to the doors. */
    let doorRequests: string[];
    beforeAll(async () => {
      ({ context, page, doorRequests } = await signedInContext(user));
    });
    afterAll(async () => {
      await context?.close();
    });

    it('event data that is not JSON: the page says so, and sends nothing', async () => {
      await page.goto(`/dashboard/automations/${automationId}`);
      await page.getByLabel('Event data (JSON)').fill('{"first_name": Ada}');
      const sent = doorRequests.length;
      await page.getByRole('button', { name: 'Dry run' }).click();
      expect(await dryRunAlert(page).innerText()).toMatch(/^Event data \(JSON\) is not valid JSON: .+/);
      expect(doorRequests.length).toBe(sent);
      expect(new URL(page.url()).pathname).toBe(`/dashboard/automations/${automationId}`);
      // The button is usable again.
      expect(await page.getByRole('button', { name: 'Dry run' }).isEnabled()).toBe(true);
    });

    it("the door's refusal (400) is shown as text: the API's own message, in the page", async () => {
      await page.goto(`/dashboard/automations/${automationId}`);
      await page.getByLabel('Event name').fill('not an event name');
      const [door] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events'),
        page.getByRole('button', { name: 'Dry run' }).click(),
      ]);
      expect(door.status()).toBe(400);
      const message = ((await door.json()) as { error: { message: string } }).error.message;
      await dryRunAlert(page).waitFor();
      expect(await dryRunAlert(page).innerText()).toContain(message);
      expect(await page.locator('#dry-run-trace').innerText()).toBe('');
      await screenshot(page, 'automation-dry-run-refused');
    });

    it('a replay the door refuses (409: the delivery already succeeded) says why, and the page stays', async () => {
      await page.goto(deliveryPath);
      const [door] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/replay')),
        page.getByRole('button', { name: 'Replay' }).click(),
      ]);
      expect(door.status()).toBe(409);
      await replayAlert(page).waitFor();
      expect(await replayAlert(page).innerText()).toMatch(/already succeeded .* Only failed or cancelled deliveries can be replayed\./);
      expect(page.url()).toBe(`${baseUrl()}${deliveryPath}`);
      expect(await page.locator('#delivery-status').innerText()).toBe('succeeded');
    });

    it("draws the door's trace as the server draws the page action's: the same text and badges", async () => {
      /** The trace as a person reads it, every step's output open, and its badges' tones. */
      const traceView = () =>
        page.locator('#dry-run-trace').evaluate((trace) => {
          type Node = { open: boolean; className: string };
          const element = trace as unknown as { innerText: string; querySelectorAll(selector: string): Iterable<Node> };
          for (const details of element.querySelectorAll('details')) details.open = true;
          return { text: element.innerText, badges: [...element.querySelectorAll('.status')].map((badge) => badge.className) };
        });
      await page.goto(`/dashboard/automations/${automationId}`);
      // Not the trigger (the run goes on, said in the summary), and data the send step renders.
      await page.getByLabel('Event name').fill('browser.not-the-trigger');
      await page.getByLabel('Event data (JSON)').fill('{"first_name": "<b>Grace</b>"}');
      const [door] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events'),
        page.getByRole('button', { name: 'Dry run' }).click(),
      ]);
      expect(door.status()).toBe(200);
      await page.getByRole('heading', { level: 2, name: 'Dry run trace' }).waitFor();
      const drawn = await traceView();
      expect(drawn.text).toContain("(not this automation's trigger: it ran anyway)");
      expect(drawn.text).toContain('Hi <b>Grace</b>');
      // The same form posted as without script (form.submit() skips the script's submit listener): the server's trace.
      await Promise.all([
        page.waitForURL(`**/dashboard/automations/${automationId}/dry-run`),
        page.locator('form[data-door]').evaluate((form) => (form as unknown as { submit(): void }).submit()),
      ]);
      expect(await traceView()).toEqual(drawn);
    });

    it('after the session ends (signed out elsewhere), the door answers 401 and the page says to sign in again, with a link back', async () => {
      await page.goto(deliveryPath);
      // Signed out in another tab: the same cookie jar, the header's form.
      const other = await context.newPage();
      await other.goto('/dashboard/emails');
      await Promise.all([other.waitForURL(/\/dashboard\/sign-in/), other.getByRole('button', { name: 'Sign out' }).click()]);
      await other.close();
      const [door] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/replay')),
        page.getByRole('button', { name: 'Replay' }).click(),
      ]);
      expect(door.status()).toBe(401);
      await replayAlert(page).waitFor();
      expect(await replayAlert(page).innerText()).toBe('Your session has ended: sign in again, then retry.');
      expect(await replayAlert(page).getByRole('link', { name: 'sign in again' }).getAttribute('href')).toBe(
        `/dashboard/sign-in?next=${encodeURIComponent(deliveryPath)}`,
      );
    });
  });

  describe('without script', () => {
    let context: BrowserContext;
    let page: Page;
    /** Requests to the doors (none: without script the forms post to their page actions). */
    let doorRequests: string[];
    beforeAll(async () => {
      ({ context, page, doorRequests } = await signedInContext(user, { script: false }));
    });
    afterAll(async () => {
      await context?.close();
    });

    it('the dry run form posts to its page action, which answers with the trace', async () => {
      await page.goto(`/dashboard/automations/${automationId}`);
      await page.getByLabel('Event data (JSON)').fill('{"first_name": "Grace"}');
      await Promise.all([
        page.waitForURL(`**/dashboard/automations/${automationId}/dry-run`),
        page.getByRole('button', { name: 'Dry run' }).click(),
      ]);
      const trace = page.getByRole('region', { name: 'Dry run trace' });
      // textContent: the stubbed email is in the step's (closed) Output.
      expect(await trace.textContent()).toContain('Hi Grace');
      expect(doorRequests).toEqual([]);
    });

    it("Replay posts its form: the action's refusal comes back as the page's message", async () => {
      await page.goto(deliveryPath);
      const [posted] = await Promise.all([
        page.waitForResponse(
          (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === `${deliveryPath}/replay`,
        ),
        page.getByRole('button', { name: 'Replay' }).click(),
      ]);
      expect(posted.status()).toBe(303);
      await page.waitForLoadState();
      expect(doorRequests).toEqual([]);
      expect(await alert(page).innerText()).toMatch(/already succeeded .* Only failed or cancelled deliveries can be replayed\./);
    });
  });
});
