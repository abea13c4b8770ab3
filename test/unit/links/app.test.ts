/** The public links app with in-memory fakes: status codes, bodies and headers of each route. */
import { createLinksApp, maskAddress, PIXEL_GIF, type LinksAppDeps } from '#functions/api/links/app';
import type { Email } from '#shared/domain/emails/email';
import { newId } from '#shared/domain/ids';
import type { LinkUrls } from '#shared/domain/links/link-urls';
import type { ServiceEvent } from '#shared/domain/webhooks/event';
import { signer } from './fakes';

const accountId = newId('acc');
const emailId = newId('msg');
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

async function setup() {
  const { signer: linkSigning } = signer();
  const urls: LinkUrls = await linkSigning.urls();
  const events: ServiceEvent[] = [];
  const writes: string[] = [];
  const email = {
    id: emailId,
    account_id: accountId,
    to: ['reader@example.com'],
    cc: [],
    tags: [],
    status: 'delivered',
    last_event: 'delivered',
    delivered_at: '2026-11-22T09:00:00.000Z',
    created_at: '2026-11-22T09:00:00.000Z',
    tenant: null,
  } as unknown as Email;
  const deps = {
    linkSigning,
    clock: { now: () => new Date('2026-11-22T10:00:00.000Z') },
    events: { publish: async (batch: ServiceEvent[]) => void events.push(...batch) },
    emails: {
      get: async (id: string) => (id === emailId ? { email, body: { inline: {} }, internals: {} } : null),
      recordEngagement: async (_id: string, _acc: string, event: string) => {
        writes.push(event);
        return { email, first: true };
      },
    },
    suppressions: {
      addMany: async (records: { email: string }[]) =>
        records.map((suppression) => {
          writes.push(`suppress ${suppression.email}`);
          return { suppression, created: true };
        }),
    },
    categoryOptOuts: {
      add: async (optOut: { email: string; category: string }) => {
        writes.push(`opt-out ${optOut.category}`);
        return { optOut, created: true };
      },
    },
    tenants: {},
  } as unknown as LinksAppDeps;
  const app = createLinksApp(deps);
  const path = (url: string) => new URL(url).pathname;
  return { app, urls, events, writes, path };
}

const all = {
  accountId,
  emailId,
  recipient: 'reader@example.com',
  scope: 'all' as const,
  category: 'transactional' as const,
  tenantId: null,
};
const product = { ...all, scope: 'category' as const, category: 'product' as const };

describe('links app', () => {
  it('GET /unsubscribe: a confirmation page (masked address, category, a form back to itself), no side effects, strict headers', async () => {
    const { app, urls, events, writes, path } = await setup();
    const response = await app.request(path(urls.unsubscribeUrl(product)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'/,
    );
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('set-cookie')).toBeNull();
    const html = await response.text();
    expect(html).toContain('r•••r@example.com');
    expect(html).not.toContain('reader@example.com');
    expect(html).toContain('Stop sending product updates to');
    expect(html).toMatch(
      /<form method="post"><input type="hidden" name="source" value="confirmation_page"><button type="submit">Unsubscribe<\/button><\/form>/,
    );
    expect(html).not.toMatch(/<(script|link|img)\b|https?:\/\//);
    expect(events).toEqual([]);
    expect(writes).toEqual([]);
    expect((await app.request(path(urls.unsubscribeUrl(product)), { method: 'HEAD' })).status).toBe(200);
    expect(writes).toEqual([]);
  });

  it('POST /unsubscribe: one-click with any body is 200 without cookies or redirect; the page form gets an HTML answer', async () => {
    const { app, urls, events, writes, path } = await setup();
    const url = path(urls.unsubscribeUrl(all));
    const bodies: RequestInit[] = [
      { body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      {
        body: (() => {
          const form = new FormData();
          form.set('List-Unsubscribe', 'One-Click');
          return form;
        })(),
      },
      {},
      { body: '{"not":"a form"}', headers: { 'content-type': 'application/json' } },
    ];
    for (const init of bodies) {
      const response = await app.request(url, { method: 'POST', ...init });
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.json()).toEqual({ unsubscribed: true });
    }
    expect(writes).toEqual(Array(4).fill('suppress reader@example.com'));
    expect(events.map((event) => event.data.source)).toEqual(['one_click', 'one_click', 'one_click', 'one_click']);

    const page = await app.request(path(urls.unsubscribeUrl(product)), {
      method: 'POST',
      body: 'source=confirmation_page',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are unsubscribed');
    expect(events[4]!.data).toMatchObject({ source: 'confirmation_page', scope: 'category', category: 'product' });
  });

  it('the pixel is a 43-byte GIF, never cached, also for HEAD; each load records', async () => {
    const { app, urls, events, writes, path } = await setup();
    const url = path(urls.openUrl({ accountId, emailId }));
    const response = await app.request(url, { headers: { 'user-agent': CHROME } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/gif');
    expect(response.headers.get('cache-control')).toMatch(/no-store/);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body).toHaveLength(43);
    expect(body.equals(PIXEL_GIF)).toBe(true);
    const head = await app.request(url, { method: 'HEAD', headers: { 'user-agent': CHROME } });
    expect(head.status).toBe(200);
    expect(writes).toEqual(['opened']);
    expect(events.map((event) => [event.type, event.data.machine])).toEqual([
      ['email.opened', false],
      ['email.opened', true],
    ]);
  });

  it('a click redirects (302) to exactly the signed URL, never to a query parameter; HEAD is a machine hit', async () => {
    const { app, urls, events, writes, path } = await setup();
    const target = 'https://example.com/pricing?plan=pro&ref=mail#top';
    const url = urls.clickUrl({ accountId, emailId, url: target });
    const response = await app.request(`${path(url)}?url=https://evil.example/&redirect=https://evil.example/`, {
      headers: { 'user-agent': CHROME },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(target);
    const head = await app.request(path(url), { method: 'HEAD', headers: { 'user-agent': CHROME } });
    expect(head.status).toBe(302);
    expect(writes).toEqual(['clicked']);
    expect(events.map((event) => [event.data.link, event.data.machine, event.data.machine_reasons])).toEqual([
      [target, false, []],
      [target, true, ['head_request']],
    ]);
    // A URL written with non-ASCII characters goes out encoded.
    const unicode = await app.request(path(urls.clickUrl({ accountId, emailId, url: 'https://exämple.com/café?q=ü' })), {
      headers: { 'user-agent': CHROME },
    });
    expect(unicode.headers.get('location')).toBe('https://xn--exmple-cua.com/caf%C3%A9?q=%C3%BC');
  });

  it('forged, altered, wrong-kind and unknown-key tokens are 404 (HTML for the page, the envelope otherwise) and record nothing', async () => {
    const { app, urls, events, writes, path } = await setup();
    const click = path(urls.clickUrl({ accountId, emailId, url: 'https://example.com/' }));
    const altered = click.slice(0, -1) + (click.endsWith('A') ? 'B' : 'A');
    const openToken = path(urls.openUrl({ accountId, emailId })).split('/').pop()!;
    const unsubscribeToken = path(urls.unsubscribeUrl(all)).split('/').pop()!;
    const page = await app.request(`/unsubscribe/${openToken}`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('not valid');
    for (const [method, target] of [
      ['GET', altered],
      ['HEAD', altered],
      ['GET', `/t/open/${unsubscribeToken}`],
      ['GET', `/t/click/${unsubscribeToken.replace(/^v2\.1\./, 'v2.5.')}`],
      ['POST', `/unsubscribe/${openToken}`],
      ['POST', '/unsubscribe/garbage'],
      ['GET', `/t/open/${'A'.repeat(5000)}`],
    ] as const) {
      const response = await app.request(target, { method });
      expect({ method, target: target.slice(0, 40), status: response.status, location: response.headers.get('location') }).toEqual({
        method,
        target: target.slice(0, 40),
        status: 404,
        location: null,
      });
      if (method !== 'HEAD') expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    expect(events).toEqual([]);
    expect(writes).toEqual([]);
  });

  it('routes tokens up to 4 KB (no 256-byte segment guard)', async () => {
    const { app, urls, path } = await setup();
    const long = `https://example.com/${'x'.repeat(1980)}`;
    const url = path(urls.clickUrl({ accountId, emailId, url: long }));
    expect(url.length).toBeGreaterThan(2500);
    const response = await app.request(url, { headers: { 'user-agent': CHROME } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(long);
  });

  it('masks addresses', () => {
    expect(maskAddress('reader@example.com')).toBe('r•••r@example.com');
    expect(maskAddress('ab@example.com')).toBe('a•••@example.com');
    expect(maskAddress('x')).toBe('•••');
  });
});
