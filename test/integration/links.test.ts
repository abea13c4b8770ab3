/**
 * The public links group against the running stack: signed links built with the service's own LinkSigner
 * (the test's services: same table, same secrets key, LINKS_BASE_URL = the stack's API), requested over
 * HTTP with no Authorization header and no cookie, as a mailbox provider or a reader does.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { newId } from '#shared/domain/ids';
import type { UnsubscribeLink } from '#shared/domain/links/link-urls';
import { encodeLegacyLinkToken, type LinkKey } from '#shared/domain/links/token';
import { linkKeyContext } from '#shared/usecases/links/link-signing';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { webhookInbox, type ReceivedWebhook } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

async function send(account: TestAccount, body: Record<string, unknown> = {}) {
  return api('POST', '/emails', {
    key: account.key,
    body: { from: `News <news@${SANDBOX}>`, to: account.email, subject: 'Links', html: '<p>Hi</p>', ...body },
  });
}

async function sent(account: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const response = await send(account, body);
  expect(response.status).toBe(200);
  return response.body.id as string;
}

/** A request to a public link exactly as a client without credentials makes it (no redirect following). */
function hit(url: string, init: RequestInit = {}): Promise<Response> {
  expect(url.startsWith(`${stack().apiUrl}/`)).toBe(true);
  return fetch(url, {
    redirect: 'manual',
    ...init,
    headers: { 'user-agent': BROWSER, ...(init.headers as Record<string, string> | undefined) },
  });
}

const oneClick = { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } };

async function suppressionsOf(account: TestAccount): Promise<{ email: string; reason: string; id: string }[]> {
  const response = await api('GET', `/suppressions?email=${encodeURIComponent(account.email)}`, { key: account.key });
  expect(response.status).toBe(200);
  return response.body.suppressions;
}

/** Lets the pipeline deliver anything that is coming, then answers what arrived. */
async function settled(received: () => Promise<ReceivedWebhook[]>, ms = 2500): Promise<ReceivedWebhook[]> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return received();
}

function unsubscribeLink(account: TestAccount, emailId: string, overrides: Partial<UnsubscribeLink> = {}): UnsubscribeLink {
  return {
    accountId: account.id,
    emailId,
    recipient: account.email.toLowerCase(),
    scope: 'all',
    category: 'transactional',
    tenantId: null,
    ...overrides,
  };
}

// The tracking tests' email (describe 'open and click tracking') is sent as the file starts: a reader's click counts only 10 s after delivery, and the
// tests before the tracking ones take about that long (the tracking tests waited here for the click in full).
let tracked: { account: TestAccount; received: () => Promise<ReceivedWebhook[]>; emailId: string };
beforeAll(async () => {
  const account = await newAccount();
  const received = await webhookInbox(account, ['email.opened', 'email.clicked']);
  tracked = { account, received, emailId: await sent(account) };
});

describe('unsubscribe links (RFC 8058)', () => {
  it('GET shows a page and changes nothing; the one-click POST suppresses (reason unsubscribe) and fires contact.unsubscribed once', async () => {
    const account = await newAccount();
    const received = await webhookInbox(account, ['contact.unsubscribed']);
    const emailId = await sent(account);
    const url = (await stack().services.linkSigning.urls()).unsubscribeUrl(unsubscribeLink(account, emailId));

    const page = await hit(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('<form method="post">');
    expect(await suppressionsOf(account)).toEqual([]);

    const response = await hit(url, oneClick);
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('set-cookie')).toBeNull();
    const [suppression, ...others] = await suppressionsOf(account);
    expect(others).toEqual([]);
    expect(suppression).toMatchObject({ email: account.email.toLowerCase(), reason: 'unsubscribe', scope: 'account', tenant: null });

    // A mailbox provider retrying later, and the reader using the page as well: one record, one event (its
    // id is derived from the email, the address and the scope; the router delivers an event id once).
    await waitFor(async () => (await received()).length > 0, 'contact.unsubscribed', 60_000);
    expect((await hit(url, oneClick)).status).toBe(200);
    const done = await hit(url, {
      method: 'POST',
      body: 'source=confirmation_page',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are unsubscribed');
    expect((await suppressionsOf(account)).map((s) => s.id)).toEqual([suppression!.id]);
    const events = await settled(received);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'contact.unsubscribed',
        created_at: expect.any(String),
        data: {
          email: account.email.toLowerCase(),
          source: 'one_click',
          scope: 'all',
          category: null,
          category_label: null,
          suppression_id: suppression!.id,
          category_opt_out_id: null,
          email_id: emailId,
        },
      },
    ]);
    // The suppression applies: the next send to the address is refused.
    expect((await send(account)).status).toBe(422);
  }, 120_000);

  it('a category link opts out of that category only: a later product send is refused 422, transactional mail still goes', async () => {
    const account = await newAccount();
    const received = await webhookInbox(account, ['contact.unsubscribed']);
    const emailId = await sent(account, { category: 'product' });
    const url = (await stack().services.linkSigning.urls()).unsubscribeUrl(
      unsubscribeLink(account, emailId, { scope: 'category', category: 'product' }),
    );
    const page = await hit(url);
    expect(await page.text()).toContain('product updates');

    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    expect((await hit(url, { method: 'POST', body: form })).status).toBe(200);

    const refused = await send(account, { category: 'product' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toMatchObject({ category_unsubscribed: [account.email], category: 'product' });
    expect((await send(account, { category: 'transactional' })).status).toBe(200);
    expect((await send(account, { category: 'newsletter' })).status).toBe(200);
    expect(await suppressionsOf(account)).toEqual([]);

    const [event] = await waitFor(
      async () => {
        const events = await received();
        return events.length ? events : undefined;
      },
      'contact.unsubscribed',
      60_000,
    );
    expect(event!.data).toEqual({
      email: account.email.toLowerCase(),
      source: 'one_click',
      scope: 'category',
      category: 'product',
      category_label: 'Product updates',
      suppression_id: null,
      category_opt_out_id: expect.stringMatching(/^cop_/),
      email_id: emailId,
    });
  }, 120_000);

  it('the link of a deleted email still unsubscribes (the address is what matters), naming the email', async () => {
    const account = await newAccount();
    const received = await webhookInbox(account, ['contact.unsubscribed']);
    const gone = newId('msg');
    const url = (await stack().services.linkSigning.urls()).unsubscribeUrl(unsubscribeLink(account, gone));
    expect((await hit(url, { method: 'POST' })).status).toBe(200);
    expect(await suppressionsOf(account)).toHaveLength(1);
    const [event] = await waitFor(
      async () => {
        const events = await received();
        return events.length ? events : undefined;
      },
      'contact.unsubscribed',
      60_000,
    );
    expect(event!.data).toMatchObject({ email_id: gone, scope: 'all' });
  }, 120_000);
});

describe('forged links', () => {
  it('a forged, altered, unknown-key or wrong-kind token is 404, never redirects and records nothing', async () => {
    const account = await newAccount();
    const received = await webhookInbox(account, ['contact.unsubscribed', 'email.opened', 'email.clicked']);
    const emailId = await sent(account);
    const urls = await stack().services.linkSigning.urls();
    const base = stack().apiUrl;
    const alter = (url: string) => url.slice(0, -1) + (url.endsWith('A') ? 'B' : 'A');
    const unsubscribe = urls.unsubscribeUrl(unsubscribeLink(account, emailId));
    const click = urls.clickUrl({ accountId: account.id, emailId, url: 'https://example.com/landing' });
    const open = urls.openUrl({ accountId: account.id, emailId });
    const openToken = open.split('/').pop()!;

    const page = await hit(alter(unsubscribe));
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const [url, init] of [
      [alter(unsubscribe), oneClick],
      [`${base}/unsubscribe/${openToken}`, oneClick],
      [unsubscribe.replace(/\/v2\.(\d+)\./, '/v2.99999.'), oneClick],
      [alter(click), {}],
      [alter(click), { method: 'HEAD' }],
      [`${base}/t/click/${openToken}?url=https://example.com/`, {}],
      [alter(open), {}],
      [`${base}/t/open/v1.1.e30.${'A'.repeat(43)}`, {}],
      [`${base}/unsubscribe/${'A'.repeat(4500)}`, oneClick],
    ] as [string, RequestInit][]) {
      const response = await hit(url, init);
      expect({
        url: url.slice(base.length, base.length + 50),
        status: response.status,
        location: response.headers.get('location'),
      }).toEqual({
        url: url.slice(base.length, base.length + 50),
        status: 404,
        location: null,
      });
      if ((init.method !== 'HEAD' && !url.includes('/unsubscribe/')) || init.method === 'POST') {
        expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
      }
    }
    expect(await suppressionsOf(account)).toEqual([]);
    expect((await send(account)).status).toBe(200);
    const stored = await stack().services.emails.get(emailId);
    expect(stored!.email.opened_at).toBeUndefined();
    expect(stored!.email.clicked_at).toBeUndefined();
    expect(await settled(received)).toEqual([]);
  });
});

describe('open and click tracking', () => {
  let account: TestAccount;
  let received: () => Promise<ReceivedWebhook[]>;
  let emailId: string;
  let deliveredAt: string;
  const target = 'https://example.com/pricing?plan=pro&utm_source=mail#compare';

  beforeAll(async () => {
    ({ account, received, emailId } = tracked);
    deliveredAt = (await waitForStatus(account, emailId, 'delivered', 20_000)).delivered_at;
  });

  const eventsOf = async (type: string) => (await received()).filter((event) => event.type === type);

  it('the pixel is a 43-byte GIF; one load is exactly one email.opened, and sets opened_at and last_event', async () => {
    const url = (await stack().services.linkSigning.urls()).openUrl({ accountId: account.id, emailId });
    const response = await hit(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    expect(Buffer.from(await response.arrayBuffer())).toHaveLength(43);

    const stored = await stack().services.emails.get(emailId);
    expect(stored!.email.opened_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(stored!.email.status).toBe('delivered');
    expect((await api('GET', `/emails/${emailId}`, { key: account.key })).body.email.last_event).toBe('opened');

    await waitFor(async () => (await eventsOf('email.opened')).length > 0, 'email.opened', 20_000);
    const opened = (await settled(received)).filter((event) => event.type === 'email.opened');
    expect(opened).toHaveLength(1);
    expect(opened[0]!.data).toMatchObject({
      email_id: emailId,
      opened_at: stored!.email.opened_at,
      user_agent: BROWSER,
      ip_address: expect.any(String),
      machine: false,
      machine_reasons: [],
      first: true,
    });
  });

  it("a HEAD click and a scanner's click redirect too, but are machine hits that do not set clicked_at", async () => {
    const url = (await stack().services.linkSigning.urls()).clickUrl({ accountId: account.id, emailId, url: target });
    const head = await hit(url, { method: 'HEAD' });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe(target);
    const scanner = await hit(url, { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Barracuda Sentinel)' } });
    expect(scanner.status).toBe(302);
    expect(scanner.headers.get('location')).toBe(target);

    const clicks = await waitFor(
      async () => {
        const events = await eventsOf('email.clicked');
        return events.length >= 2 ? events : undefined;
      },
      'two email.clicked',
      20_000,
    );
    expect(clicks.map((event) => [event.data.machine, event.data.first, event.data.link])).toEqual([
      [true, false, target],
      [true, false, target],
    ]);
    // Delivered in any order: one names the HEAD request, the other the scanner.
    const reasons = clicks.map((event) => event.data.machine_reasons as string[]);
    expect(reasons.filter((list) => list.includes('head_request'))).toHaveLength(1);
    expect(reasons.filter((list) => list.includes('link_scanner'))).toHaveLength(1);
    expect((await stack().services.emails.get(emailId))!.email.clicked_at).toBeUndefined();
  });

  it("a reader's click redirects to exactly the signed URL and is one email.clicked, setting clicked_at and last_event", async () => {
    // Gateways follow links as mail arrives: a click within 10 s of delivery would count as a machine's.
    const wait = Date.parse(deliveredAt) + 10_500 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const before = (await eventsOf('email.clicked')).length;
    const url = (await stack().services.linkSigning.urls()).clickUrl({ accountId: account.id, emailId, url: target });
    const response = await hit(`${url}?url=https://evil.example/&next=https://evil.example/`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(target);

    const stored = await stack().services.emails.get(emailId);
    expect(stored!.email.clicked_at).toMatch(/^\d{4}-/);
    expect((await api('GET', `/emails/${emailId}`, { key: account.key })).body.email.last_event).toBe('clicked');
    await waitFor(async () => (await eventsOf('email.clicked')).length > before, 'email.clicked', 20_000);
    const clicks = (await settled(received)).filter((event) => event.type === 'email.clicked').slice(before);
    expect(clicks).toHaveLength(1);
    expect(clicks[0]!.data).toMatchObject({
      link: target,
      clicked_at: stored!.email.clicked_at,
      machine: false,
      machine_reasons: [],
      first: true,
      user_agent: BROWSER,
    });
  }, 30_000);

  it('links of an email that no longer exists answer normally but record nothing', async () => {
    const gone = newId('msg');
    const urls = await stack().services.linkSigning.urls();
    const before = (await received()).length;
    expect((await hit(urls.openUrl({ accountId: account.id, emailId: gone }))).status).toBe(200);
    const click = await hit(urls.clickUrl({ accountId: account.id, emailId: gone, url: target }));
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe(target);
    expect((await settled(received)).length).toBe(before);
  });
});

describe('legacy v1 tokens (mail sent before opaque tokens)', () => {
  /** The deployment's newest link key, opened as the service opens it. */
  async function currentKey(): Promise<LinkKey> {
    const { services } = stack();
    await services.linkSigning.urls(); // creates the first key on a fresh stack
    const stored = (await services.linkKeys.current())!;
    return {
      kid: stored.kid,
      secret: Buffer.from(await services.secretBox.open(stored.sealed_secret, linkKeyContext(stored.kid)), 'base64'),
    };
  }

  it('still unsubscribe, count the open and redirect the click; new links are opaque v2 tokens naming nobody', async () => {
    const account = await newAccount();
    const opened = await webhookInbox(account, ['email.opened']);
    const emailId = await sent(account);
    const key = await currentKey();
    const base = stack().info.env.LINKS_BASE_URL!;
    const legacy = (kind: 'unsubscribe' | 'open' | 'click', link: any) => encodeLegacyLinkToken(key, { kind, link } as never);
    const legacyUnsubscribe = legacy('unsubscribe', unsubscribeLink(account, emailId));
    const unsubscribe = `${base}/unsubscribe/${legacyUnsubscribe}`;
    // A v1 token's payload is readable: what opaque tokens end.
    expect(Buffer.from(legacyUnsubscribe.split('.')[2]!, 'base64url').toString('utf8')).toContain(account.email.toLowerCase());

    expect((await hit(`${base}/t/open/${legacy('open', { accountId: account.id, emailId })}`)).status).toBe(200);
    await waitFor(async () => (await opened()).length >= 1, 'email.opened of the legacy pixel', 20_000);
    const click = await hit(`${base}/t/click/${legacy('click', { accountId: account.id, emailId, url: 'https://example.com/legacy' })}`);
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe('https://example.com/legacy');
    expect((await hit(unsubscribe, oneClick)).status).toBe(200);
    expect(await suppressionsOf(account)).toEqual([expect.objectContaining({ email: account.email.toLowerCase(), reason: 'unsubscribe' })]);

    const current = (await stack().services.linkSigning.urls()).unsubscribeUrl(unsubscribeLink(account, emailId));
    expect(current).toMatch(/\/unsubscribe\/v2\.\d+\.[\w-]+\.[\w-]{43}$/);
    const token = current.slice(current.lastIndexOf('/') + 1);
    const readable = [token, ...token.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))].join(' ').toLowerCase();
    for (const name of [
      account.email.toLowerCase(),
      account.email.toLowerCase().split('@')[0]!,
      account.id.toLowerCase(),
      emailId.toLowerCase(),
    ])
      expect(readable).not.toContain(name);
  });
});

describe('link key rotation', () => {
  it('a link signed before rotateLinkKey() still works after it; new links use the new key', async () => {
    const account = await newAccount();
    const received = await webhookInbox(account, ['email.opened']);
    const emailId = await sent(account);
    const signing = stack().services.linkSigning;
    const before = (await signing.urls()).openUrl({ accountId: account.id, emailId });
    const rotated = await signing.rotateLinkKey();
    const after = (await signing.urls()).openUrl({ accountId: account.id, emailId });
    const kidOf = (url: string) => /\/v2\.(\d+)\./.exec(url)![1];
    expect(kidOf(after)).toBe(rotated.kid);
    expect(kidOf(before)).not.toBe(rotated.kid);

    expect((await hit(before)).status).toBe(200);
    expect((await hit(after)).status).toBe(200);
    await waitFor(async () => (await received()).length >= 2, 'two email.opened', 20_000);
    // Delivered in any order: in the order of the opens, the first set opened_at.
    const opens = (await received()).sort((a, b) => String(a.data.opened_at).localeCompare(String(b.data.opened_at)));
    expect(opens.map((event) => [event.type, event.data.first, event.data.machine])).toEqual([
      ['email.opened', true, false],
      ['email.opened', false, false],
    ]);
  });

  it('the admin CLI rotate-link-key adds the next key; links signed before keep working', async () => {
    const account = await newAccount();
    const emailId = await sent(account);
    const before = (await stack().services.linkSigning.urls()).clickUrl({ accountId: account.id, emailId, url: 'https://example.com/cli' });
    const root = resolve(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'localstack', 'admin.cjs'), 'rotate-link-key'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: process.env.TEST_STACK_DATA_DIR },
    });
    const rotated = JSON.parse(stdout.trim()) as { link_key: string; created_at: string };
    expect(rotated).toEqual({ link_key: expect.stringMatching(/^[1-9]\d*$/), created_at: expect.any(String) });
    expect(Number(rotated.link_key)).toBeGreaterThan(Number(/\/v2\.(\d+)\./.exec(before)![1]));
    const response = await hit(before);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/cli');
  });
});
