/** The links the send worker puts into a message: managed unsubscribe and tracking (pure, with fake URLs). */
import type { Email } from '#shared/domain/emails/email';
import type { LinkUrls } from '#shared/domain/links/link-urls';
import { NO_TRACKING, needsLinks, withManagedLinks } from '#shared/usecases/send/managed-links';

const urls: LinkUrls & { seen: unknown[] } = {
  seen: [],
  unsubscribeUrl(link) {
    this.seen.push(link);
    return `https://links.test/unsubscribe/${link.scope}-${link.recipient}`;
  },
  openUrl: (link) => `https://links.test/t/open/${link.emailId}`,
  clickUrl: (link) => `https://links.test/t/click/${encodeURIComponent(link.url)}`,
};

function email(overrides: Partial<Email> = {}): Email {
  return {
    id: 'msg_1',
    account_id: 'acc_1',
    from: 'a@acme.test',
    to: ['Ann <Ann@Example.org>', 'b@example.org'],
    cc: [],
    bcc: [],
    reply_to: [],
    subject: 'News {{ unsubscribe_url }}',
    status: 'queued',
    last_event: 'queued',
    bounce_reason: null,
    bounce_type: null,
    tags: [],
    headers: { 'X-Campaign': 'c1' },
    scheduled_at: null,
    cancelled_at: null,
    sent_at: null,
    delivered_at: null,
    bounced_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    tenant: null,
    tenant_id: 'ten_1',
    category: 'product',
    provider_message_id: null,
    unsubscribe: true,
    ...overrides,
  };
}

describe('withManagedLinks', () => {
  beforeEach(() => (urls.seen.length = 0));

  it('binds the unsubscribe link to the first to address (bare, lower-case), the category and the tenant', () => {
    const out = withManagedLinks(
      email(),
      { html: '<a href="{{unsubscribe_url}}">x</a>', text: 'stop: {{unsubscribe_url}}' },
      NO_TRACKING,
      urls,
    );
    expect(urls.seen).toEqual([
      { accountId: 'acc_1', emailId: 'msg_1', recipient: 'ann@example.org', scope: 'category', category: 'product', tenantId: 'ten_1' },
    ]);
    const link = 'https://links.test/unsubscribe/category-ann@example.org';
    expect(out.email.headers).toEqual({
      'X-Campaign': 'c1',
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(out.email.subject).toBe(`News ${link}`);
    expect(out.body).toEqual({ html: `<a href="${link}">x</a>`, text: `stop: ${link}` });
  });

  it('a transactional email unsubscribes from everything (scope all)', () => {
    withManagedLinks(email({ category: 'transactional' }), { text: 'x' }, NO_TRACKING, urls);
    expect(urls.seen).toEqual([expect.objectContaining({ scope: 'all', category: 'transactional' })]);
  });

  it('without managed unsubscribe: no headers and the placeholder is left as written', () => {
    const out = withManagedLinks(email({ unsubscribe: false }), { text: '{{unsubscribe_url}}' }, NO_TRACKING, urls);
    expect(out.email.headers).toEqual({ 'X-Campaign': 'c1' });
    expect(out.body.text).toBe('{{unsubscribe_url}}');
    expect(urls.seen).toEqual([]);
  });

  it('click tracking rewrites http(s) links of html and text, never the unsubscribe link, mailto: or tel:', () => {
    const html =
      '<a href="https://shop.test/a?b=1&amp;c=2">shop</a> <a href="{{unsubscribe_url}}">u</a> <a href="mailto:x@y.test">m</a> <a href="tel:+1">t</a>';
    const out = withManagedLinks(
      email(),
      { html, text: 'Visit https://shop.test/a and {{unsubscribe_url}}' },
      { open: false, click: true },
      urls,
    );
    const unsubscribe = 'https://links.test/unsubscribe/category-ann@example.org';
    expect(out.body.html).toContain(`https://links.test/t/click/${encodeURIComponent('https://shop.test/a?b=1&c=2')}`);
    expect(out.body.html).toContain(`href="${unsubscribe}"`);
    expect(out.body.html).toContain('href="mailto:x@y.test"');
    expect(out.body.html).toContain('href="tel:+1"');
    expect(out.body.text).toBe(`Visit https://links.test/t/click/${encodeURIComponent('https://shop.test/a')} and ${unsubscribe}`);
  });

  it('open tracking adds the pixel to html only', () => {
    const out = withManagedLinks(
      email({ unsubscribe: false }),
      { html: '<html><body><p>x</p></body></html>', text: 'x' },
      { open: true, click: false },
      urls,
    );
    expect(out.body.html).toMatch(
      /<div[^>]+background-image:url\('https:\/\/links\.test\/t\/open\/msg_1'\)[^>]*><\/div><!--\[if mso\]><img[^>]+src="https:\/\/links\.test\/t\/open\/msg_1"[^>]*><!\[endif\]-->\s*<\/body>/,
    );
    expect(out.body.text).toBe('x');
  });

  it('needsLinks: only when the email or its domain asks', () => {
    expect(needsLinks({ unsubscribe: false }, NO_TRACKING)).toBe(false);
    expect(needsLinks({}, NO_TRACKING)).toBe(false);
    expect(needsLinks({ unsubscribe: true }, NO_TRACKING)).toBe(true);
    expect(needsLinks({}, { open: true, click: false })).toBe(true);
    expect(needsLinks({}, { open: false, click: true })).toBe(true);
  });
});
