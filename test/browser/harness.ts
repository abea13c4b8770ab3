/**
 * Browser tests' harness (docs/dashboard.md, "Browser tests"): Debian's Chromium driven by playwright-core
 * (no browser download: the system's /usr/bin/chromium, or CHROMIUM_PATH), against the local cloud the
 * integration global setup starts. One browser per test file, a fresh context (cookie jar, storage) per
 * user journey, sign-in through the page's form, and screenshots saved to .test-data/screenshots/ (docs/dashboard/ keeps a copy).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { newDashboardUser } from '../integration/harness/dashboard';
import { newAccount, stack, type TestAccount } from '../integration/harness/stack';

/** Where each run saves its screenshots (ignored by git); `npm run screenshots:docs` copies them to docs/dashboard/. */
export const SCREENSHOT_DIR = process.env.BROWSER_SCREENSHOT_DIR || resolve(__dirname, '../../.test-data/screenshots');
export const VIEWPORT = { width: 1280, height: 800 };

/** The browser's executable: CHROMIUM_PATH, else Debian's package. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}: the browser tests drive Debian's chromium package. ` +
        'Install it with `bash bin/install-test-tools`, or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  return path;
}

/**
 * Flags for a closed network: nothing in the background (updates, sync, field trials, QUIC), so Chromium
 * only talks to the pages the tests open. Playwright adds --headless, --no-sandbox (Chromium's sandbox
 * needs user namespaces, absent when running as root in a container) and a fresh --user-data-dir
 * (a temporary profile per launch, deleted on close).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** The dashboard's origin (the local cloud's API: http://127.0.0.1:<port>). */
export const baseUrl = (): string => stack().apiUrl.replace(/\/$/, '');

/**
 * A fresh context: no cookies, no storage, 1280x800, relative URLs against the local cloud, and the
 * pages' Content-Security-Policy enforced (never bypassed: scripts the tests play in a page are held to
 * it as the dashboard's own script is). `script: false`: JavaScript off, a browser without script.
 */
export async function newContext(browser: Browser | undefined, options: { script?: boolean } = {}): Promise<BrowserContext> {
  if (!browser) throw new Error('no browser: launching Chromium failed (see the first error)');
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: VIEWPORT,
    locale: 'en-US',
    timezoneId: 'UTC',
    javaScriptEnabled: options.script ?? true,
  });
  context.setDefaultTimeout(15_000);
  context.setDefaultNavigationTimeout(20_000);
  return context;
}

export interface DashboardTestUser {
  account: TestAccount;
  email: string;
  password: string;
}

/** A fresh account (its full-access key through the createAccount use case) with one dashboard user. */
export async function newDashboardAccount(plan: 'free' | 'pro' = 'pro'): Promise<DashboardTestUser> {
  const account = await newAccount({ plan });
  const { email, password } = await newDashboardUser(account);
  return { account, email, password };
}

/** Signs in through the sign-in page's form, as a person does; ends on /dashboard/emails. */
export async function signInThroughUi(page: Page, user: Pick<DashboardTestUser, 'email' | 'password'>): Promise<void> {
  await page.goto('/dashboard/sign-in');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await Promise.all([page.waitForURL(/\/dashboard\/emails(\?|$)/), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
}

/** Saves the viewport (1280x800) as <SCREENSHOT_DIR>/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false, animations: 'disabled', caret: 'hide' });
  return path;
}

/** Where a failing step leaves the page as it was (.test-data/ is ignored by git): <name>.png. */
export const FAILURE_DIR = resolve(__dirname, '..', '..', '.test-data', 'browser-failures');

/** Saves the page as a failing step left it; answers the file's path (or undefined if the page is gone). */
export async function failureScreenshot(page: Page | undefined, name: string): Promise<string | undefined> {
  if (!page || page.isClosed()) return undefined;
  mkdirSync(FAILURE_DIR, { recursive: true });
  const path = join(FAILURE_DIR, `${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`);
  return page.screenshot({ path, fullPage: true }).then(
    () => path,
    () => undefined,
  );
}

/** Reloads until `probe` holds (for pages that do not refresh themselves). */
export async function reloadUntil(page: Page, probe: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // A probe that throws (the page mid-reload, a locator not there yet) is "not yet"; its last error is the timeout's cause.
  let lastError: unknown;
  const holds = () =>
    probe().catch((error: unknown) => {
      lastError = error;
      return false;
    });
  for (;;) {
    if (await holds()) return;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what} on ${page.url()}${lastError ? ` (the probe last threw: ${(lastError as Error).message})` : ''}`,
        { cause: lastError },
      );
    await page.waitForTimeout(1_000);
    if (await holds()) return;
    // A reload that another navigation of the page cut short (net::ERR_ABORTED, once in a whole run) is looked
    // at again like any other: the loop probes the page as it then is.
    await page.reload().catch((error: Error) => {
      if (!/ERR_ABORTED|frame was detached/.test(error.message)) throw error;
      lastError = error;
    });
  }
}

/** The session's CSRF token as a signed-in page holds it (its forms' `csrf_token` field, the one the page script sends). */
export async function pageCsrfToken(page: Page): Promise<string> {
  const token = await page.locator('input[name="csrf_token"]').first().getAttribute('value');
  if (!token) throw new Error(`no csrf_token field on ${page.url()}: is the page signed in?`);
  return token;
}
