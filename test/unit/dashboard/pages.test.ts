/**
 * The dashboard pages' pure parts (docs/dashboard.md, "Pages"): the email search filter, an email's
 * timeline and refresh rule, per-day activity, the charts, `next` after sign-in, pagination links, the
 * page frame (escaping, one h1, the live region), a domain's SES verification, and the email content use
 * case (bodies and headers).
 */
import { Hono } from 'hono';
import { dailyActivity, emailTimeline, isInFlight, matchesEmail, type EmailFacts } from '#functions/api/dashboard/pages/email-model';
import { barChart, niceMax, rateChart } from '#functions/api/dashboard/pages/charts';
import { errorText, pager, safeNext } from '#functions/api/dashboard/pages/forms';
import { APP_CSS, APP_JS, ASSETS } from '#functions/api/dashboard/pages/assets';
import { html, renderDocument } from '#functions/api/dashboard/pages/layout';
import { providerMarker, providerNotice } from '#functions/api/dashboard/pages/domain-provider';
import { ValidationError } from '#shared/domain/errors';
import type { Email } from '#shared/domain/emails/email';
import { getEmailContent } from '#shared/usecases/emails/email-content';
import type { Principal } from '#shared/usecases/access/principal';
import { account } from './fakes';

const base: EmailFacts = {
  to: ['Ada <ada@example.com>'],
  cc: [],
  bcc: ['audit@example.org'],
  subject: 'Your invoice #12',
  status: 'delivered',
  last_event: 'delivered',
  tags: [{ name: 'kind', value: 'invoice' }],
  created_at: '2026-11-20T10:00:00.000Z',
  scheduled_at: null,
  cancelled_at: null,
  sent_at: '2026-11-20T10:00:01.000Z',
  delivered_at: '2026-11-20T10:00:03.000Z',
  bounced_at: null,
  bounce_reason: null,
  bounce_type: null,
};

describe('matchesEmail', () => {
  it('matches recipient and subject as case-insensitive substrings (to, cc, bcc), status exactly, tag by name or name=value', () => {
    expect(matchesEmail(base, {})).toBe(true);
    expect(matchesEmail(base, { recipient: 'ADA@' })).toBe(true);
    expect(matchesEmail(base, { recipient: 'audit' })).toBe(true);
    expect(matchesEmail(base, { recipient: 'bob' })).toBe(false);
    expect(matchesEmail(base, { subject: 'INVOICE' })).toBe(true);
    expect(matchesEmail(base, { subject: 'receipt' })).toBe(false);
    expect(matchesEmail(base, { status: 'delivered' })).toBe(true);
    expect(matchesEmail(base, { status: 'deliver' })).toBe(false);
    expect(matchesEmail(base, { tag: 'kind' })).toBe(true);
    expect(matchesEmail(base, { tag: 'kind=invoice' })).toBe(true);
    expect(matchesEmail(base, { tag: 'kind=receipt' })).toBe(false);
    expect(matchesEmail(base, { tag: 'other' })).toBe(false);
    expect(matchesEmail(base, { recipient: 'ada', subject: 'invoice', status: 'delivered', tag: 'kind' })).toBe(true);
  });
});

describe('emailTimeline', () => {
  const events = (email: EmailFacts) => emailTimeline(email).map((entry) => entry.event);

  it('lists what the record reached, in order, with its times', () => {
    expect(emailTimeline({ ...base, opened_at: '2026-11-20T11:00:00.000Z', clicked_at: '2026-11-20T11:01:00.000Z' })).toEqual([
      { event: 'accepted', at: base.created_at, detail: null },
      { event: 'sent', at: base.sent_at, detail: null },
      { event: 'delivered', at: base.delivered_at, detail: null },
      { event: 'opened', at: '2026-11-20T11:00:00.000Z', detail: null },
      { event: 'clicked', at: '2026-11-20T11:01:00.000Z', detail: null },
    ]);
    expect(events({ ...base, status: 'queued', last_event: 'queued', sent_at: null, delivered_at: null })).toEqual(['accepted']);
  });

  it('shows bounces, failures, delays, complaints and cancellations with their details', () => {
    const bounced = emailTimeline({
      ...base,
      status: 'bounced',
      last_event: 'bounced',
      delivered_at: null,
      bounced_at: '2026-11-20T10:00:05.000Z',
      bounce_type: 'Permanent',
      bounce_reason: 'mailbox unknown',
    });
    expect(bounced.at(-1)).toEqual({ event: 'bounced', at: '2026-11-20T10:00:05.000Z', detail: 'Permanent: mailbox unknown' });
    expect(
      events({ ...base, status: 'failed', last_event: 'failed', sent_at: null, delivered_at: null, bounce_reason: 'suppressed' }),
    ).toEqual(['accepted', 'failed']);
    expect(events({ ...base, status: 'sent', last_event: 'delivery_delayed', delivered_at: null })).toEqual([
      'accepted',
      'sent',
      'delivery_delayed',
    ]);
    expect(events({ ...base, last_event: 'complained' })).toEqual(['accepted', 'sent', 'delivered', 'complained']);
    expect(
      events({
        ...base,
        status: 'cancelled',
        last_event: 'queued',
        scheduled_at: '2026-12-01T00:00:00.000Z',
        cancelled_at: '2026-11-21T00:00:00.000Z',
        sent_at: null,
        delivered_at: null,
      }),
    ).toEqual(['accepted', 'scheduled', 'cancelled']);
  });
});

describe('isInFlight', () => {
  const now = new Date('2026-11-20T10:05:00.000Z');
  it('is true for a queued or sent email accepted in the last 10 minutes only', () => {
    expect(isInFlight({ status: 'queued', created_at: '2026-11-20T10:00:00.000Z' }, now)).toBe(true);
    expect(isInFlight({ status: 'sent', created_at: '2026-11-20T10:00:00.000Z' }, now)).toBe(true);
    expect(isInFlight({ status: 'sent', created_at: '2026-11-20T09:50:00.000Z' }, now)).toBe(false);
    for (const status of ['delivered', 'bounced', 'failed', 'scheduled', 'cancelled'])
      expect(isInFlight({ status, created_at: '2026-11-20T10:04:00.000Z' }, now)).toBe(false);
  });
});

describe('dailyActivity', () => {
  const now = new Date('2026-11-20T15:00:00.000Z');
  const email = (day: string, fields: Partial<EmailFacts>) => ({
    ...base,
    created_at: `${day}T09:00:00.000Z`,
    sent_at: null,
    delivered_at: null,
    status: 'queued',
    last_event: 'queued',
    ...fields,
  });

  it('counts per UTC day of acceptance, rates as shares of sent, days without sends have no rate', () => {
    const sample = dailyActivity(
      [
        email('2026-11-20', { sent_at: 'x', delivered_at: 'x', status: 'delivered', last_event: 'delivered' }),
        email('2026-11-20', { sent_at: 'x', status: 'bounced', last_event: 'bounced' }),
        email('2026-11-20', { sent_at: 'x', delivered_at: 'x', status: 'delivered', last_event: 'complained' }),
        email('2026-11-20', { sent_at: 'x', delivered_at: 'x', status: 'delivered', last_event: 'delivered' }),
        email('2026-11-18', {}),
      ],
      now,
      14,
      false,
    );
    expect(sample.days.map((day) => day.day)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(sample.days[2]).toEqual({
      day: '2026-11-20',
      accepted: 4,
      sent: 4,
      delivered: 3,
      bounced: 1,
      complained: 1,
      delivery_rate: 0.75,
      bounce_rate: 0.25,
      complaint_rate: 0.25,
    });
    expect(sample.days[0]).toMatchObject({ accepted: 1, sent: 0, delivery_rate: null, bounce_rate: null });
    expect(sample).toMatchObject({ emails: 5, truncated: false });
  });

  it('covers at most maxDays, and only today when there are no emails', () => {
    expect(dailyActivity([email('2026-10-01', {})], now, 14, true).days).toHaveLength(14);
    expect(dailyActivity([], now, 14, false).days.map((day) => day.day)).toEqual(['2026-11-20']);
  });
});

describe('charts', () => {
  it('rounds the axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.003, 1, 3, 7, 12, 180, 999].map(niceMax)).toEqual([1, 0.005, 1, 5, 10, 20, 200, 1000]);
  });

  it('draws an accessible SVG: role img, title and description by id, escaped labels; a rate chart leaves gaps for days without sends', () => {
    const bars = String(barChart({ id: 'c1', title: 'Sends <per> day', desc: 'a & b', labels: ['11-19', '11-20'], values: [3, 5] }));
    expect(bars).toContain('role="img" aria-labelledby="c1-title c1-desc"');
    expect(bars).toContain('<title id="c1-title">Sends &lt;per&gt; day</title><desc id="c1-desc">a &amp; b</desc>');
    expect(bars.match(/<rect class="bar"/g)).toHaveLength(2);
    const rates = String(
      rateChart({
        id: 'c2',
        title: 'Rates',
        desc: 'd',
        labels: ['a', 'b', 'c'],
        series: [{ name: 'Delivery rate', values: [1, null, 0.5] }],
      }),
    );
    expect(rates.match(/<circle class="s0"/g)).toHaveLength(2);
    expect(rates).not.toContain('<polyline');
    expect(rates).toContain('Delivery rate');
  });
});

describe('safeNext', () => {
  it('keeps dashboard pages of this origin and nothing else', () => {
    expect(safeNext('/dashboard/webhooks?x=1')).toBe('/dashboard/webhooks?x=1');
    expect(safeNext('/dashboard')).toBe('/dashboard');
    for (const value of [
      undefined,
      null,
      '',
      'https://evil.example/dashboard',
      '//evil.example/dashboard',
      '/dashboardx',
      '/dashboard\\..\\x',
      '/emails',
      '/dashboard/sign-in?next=/x',
      '/dashboard/sign-out',
      `/dashboard/${'a'.repeat(3000)}`,
      '/dashboard/\nx',
    ]) {
      expect(safeNext(value)).toBe('/dashboard/emails');
    }
  });
});

describe('pager', () => {
  it('links Older with the next cursor and the trail, Newer back one page, and keeps the filters', () => {
    const first = String(pager('/dashboard/emails', { status: 'sent', tag: undefined }, {}, 'c1'));
    expect(first).toContain('href="/dashboard/emails?status=sent&amp;cursor=c1&amp;prev=" rel="next">Older</a>');
    expect(first).not.toContain('Newer');
    const second = String(pager('/dashboard/emails', { status: 'sent' }, { cursor: 'c1', prev: [''] }, 'c2'));
    expect(second).toContain('href="/dashboard/emails?status=sent" rel="prev">Newer</a>');
    expect(second).toContain('href="/dashboard/emails?status=sent&amp;cursor=c2&amp;prev=.c1" rel="next">Older</a>');
    const third = String(pager('/dashboard/emails', {}, { cursor: 'c2', prev: ['', 'c1'] }, null));
    expect(third).toContain('href="/dashboard/emails?cursor=c1&amp;prev=" rel="prev">Newer</a>');
    expect(third).toContain('href="/dashboard/emails">Newest</a>');
    expect(third).not.toContain('Older');
    expect(String(pager('/x', {}, {}, null))).toBe('');
  });
});

describe('the page frame', () => {
  it('escapes every value, has one h1, a skip link, the live region and the navigation only when signed in', () => {
    const page = renderDocument('/dashboard/emails/msg_1', {
      title: '<script>alert(1)</script>',
      body: html`<p>${'<b>x</b>'}</p>`,
      user: { email: 'a"b@example.com', csrf: 'tok"en' },
      flash: { kind: 'error', text: '<img src=x onerror=alert(1)>' },
    });
    expect(page).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(page).toContain('<p>&lt;b&gt;x&lt;/b&gt;</p>');
    expect(page).toContain('value="tok&quot;en"');
    expect(page).toContain('<p class="error" role="alert">&lt;img src=x onerror=alert(1)&gt;</p>');
    expect(page).not.toMatch(/<script>alert|<img src=x/);
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<a href="/dashboard/emails" aria-current="page">Emails</a>');
    expect(page).toContain('<a class="skip" href="#main">Skip to main content</a>');
    const anonymous = renderDocument('/dashboard/sign-in', { title: 'Sign in', body: html`` });
    expect(anonymous).not.toContain('<nav');
    expect(anonymous).not.toContain('Sign out');
  });

  it('states errors with their fields and hint', () => {
    const error = new ValidationError('The request is invalid.', {
      details: { fields: [{ field: 'name', message: 'is required' }] },
      hint: 'Fill it in.',
    });
    expect(errorText(error)).toBe('The request is invalid. name: is required Fill it in.');
  });

  it('ships a small stylesheet and script (far under 200 KB of script: under 10 KB) at content-hashed URLs', () => {
    expect(Buffer.byteLength(APP_JS)).toBeLessThan(10 * 1024);
    expect(Buffer.byteLength(APP_CSS)).toBeLessThan(10 * 1024);
    expect(ASSETS.css.path).toMatch(/^\/dashboard\/assets\/app\.[0-9a-f]{12}\.css$/);
    expect(APP_CSS).toContain(':focus-visible');
  });
});

describe("a domain's SES verification (domain-provider)", () => {
  const at = '2026-11-20T10:00:00.000Z';
  const pending = { status: 'pending' as const, message: 'SES has not yet confirmed the DKIM record.', checked_at: at };
  const verifyAgain = html`<button>Verify again</button>`;
  const REFUSED = 'Sends from this domain are refused until SES confirms it.';

  it('says nothing before the domain was registered with SES, or once SES can send from it', () => {
    expect(String(providerNotice({ status: 'pending', provider: null }, verifyAgain))).toBe('');
    expect(String(providerNotice({ status: 'verified', provider: { ...pending, status: 'verified' } }, verifyAgain))).toBe('');
    expect(String(providerMarker(null))).toBe('');
    expect(String(providerMarker({ ...pending, status: 'verified' }))).toBe('');
  });

  it('says sends are refused only for a domain not verified before (a verified one keeps its status while SES re-verifies a new key)', () => {
    const waiting = String(providerNotice({ status: 'pending', provider: pending }, verifyAgain));
    expect(waiting).toContain(REFUSED);
    expect(waiting).toContain('<dd class="provider-message">SES has not yet confirmed the DKIM record.</dd>');
    expect(waiting).not.toContain('Verify again');
    const reverifying = String(providerNotice({ status: 'verified', provider: pending }, verifyAgain));
    expect(reverifying).toContain('<h2 id="provider-heading">Mail provider (SES)</h2>');
    expect(reverifying).not.toContain(REFUSED);
    const failed = String(providerNotice({ status: 'pending', provider: { ...pending, status: 'failed' } }, verifyAgain));
    expect(failed).toContain('<button>Verify again</button> <span class="hint">Verifying again restarts SES\'s verification');
    expect(failed).toContain(REFUSED);
    expect(String(providerMarker({ ...pending, status: 'failed' }))).toBe(' <span class="status bad">SES failed</span>');
  });
});

describe('getEmailContent', () => {
  const principal: Principal = {
    account,
    credential: { kind: 'session', id: 'usr_1', scopes: ['full'], tenant: null, allowed_domains: null },
  };
  const email: Email = {
    id: 'msg_01JD8Z6X4Q2T9V3N5M7K1H0G8F',
    account_id: account.id,
    from: 'Acme <hello@acme.test>',
    to: ['ada@example.com'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 'Hello',
    status: 'delivered',
    last_event: 'opened',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: { 'X-Campaign': 'fall' },
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: '2026-11-20T10:00:00.000Z',
    tenant: null,
    provider_message_id: null,
    opened_at: '2026-11-20T11:00:00.000Z',
  };
  const deps = (stored: unknown, blobs: Record<string, Buffer> = {}) => ({
    emails: { get: async (id: string) => (id === email.id ? (stored as never) : null) },
    blobs: { get: async (key: string) => blobs[key]! },
    tenants: { existing: async () => new Map() },
  });

  it('a composed email: its bodies and the header block as composed, with the first open', async () => {
    const content = await getEmailContent(
      deps({ email, body: { inline: { html: '<p>Hi</p>', text: 'Hi' } }, internals: {} }) as never,
      principal,
      email.id,
    );
    expect(content).toMatchObject({
      html: '<p>Hi</p>',
      text: 'Hi',
      source: 'composed',
      email: { id: email.id, opened_at: '2026-11-20T11:00:00.000Z', clicked_at: null },
    });
    expect(content.headers).toMatch(/^From: Acme <hello@acme\.test>$/m);
    expect(content.headers).toMatch(/^Subject: Hello$/m);
    expect(content.headers).toMatch(/^X-Campaign: fall$/m);
    expect(content.headers).toMatch(/^Message-ID: <msg_01JD8Z6X4Q2T9V3N5M7K1H0G8F@acme\.test>$/m);
    expect(content.headers).not.toContain('<p>Hi</p>');
  });

  it('a raw (SMTP) message: its own header block and parsed bodies; a body in the blob store is read', async () => {
    const raw = Buffer.from(
      'From: a@acme.test\r\nTo: ada@example.com\r\nSubject: Raw one\r\nX-Mailer: relay\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Raw body</p>\r\n',
    );
    const content = await getEmailContent(
      deps({ email, body: { inline: {} }, mime: { blobKey: 'mime/1' }, internals: {} }, { 'mime/1': raw }) as never,
      principal,
      email.id,
    );
    expect(content.source).toBe('raw');
    expect(content.headers).toBe(
      'From: a@acme.test\nTo: ada@example.com\nSubject: Raw one\nX-Mailer: relay\nContent-Type: text/html; charset=utf-8',
    );
    expect(content.html).toContain('<p>Raw body</p>');
    const stored = await getEmailContent(
      deps(
        { email, body: { blobKey: 'bodies/1.json' }, internals: {} },
        { 'bodies/1.json': Buffer.from(JSON.stringify({ text: 'From the blob' })) },
      ) as never,
      principal,
      email.id,
    );
    expect(stored).toMatchObject({ html: null, text: 'From the blob' });
  });

  it("another account's email, or no email id at all, is not found", async () => {
    await expect(
      getEmailContent(
        deps({ email: { ...email, account_id: 'acc_other' }, body: { inline: {} }, internals: {} }) as never,
        principal,
        email.id,
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(getEmailContent(deps(null) as never, principal, 'nope')).rejects.toMatchObject({ status: 404 });
  });
});

// The pages app answers without a stack for what needs no store: the assets and the sign-in page.
describe('the pages app', () => {
  it('serves the assets and the sign-in page without a session; a page without one redirects', async () => {
    const { createDashboardPages } = await import('#functions/api/dashboard/pages');
    const sessions = { get: async () => null, create: async () => undefined, touch: async () => null, delete: async () => undefined };
    const app = new Hono().route(
      '/dashboard',
      createDashboardPages({ sessions, dashboardUsers: { getWithAccount: async () => ({}) }, clock: { now: () => new Date() } } as never),
    );
    const css = await app.request(ASSETS.css.path);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const signIn = await app.request('/dashboard/sign-in?next=/dashboard/domains');
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain('<input type="hidden" name="next" value="/dashboard/domains">');
    const emails = await app.request('/dashboard/emails?status=sent');
    expect(emails.status).toBe(302);
    expect(emails.headers.get('location')).toBe('/dashboard/sign-in?next=%2Fdashboard%2Femails%3Fstatus%3Dsent');
  });
});
