/** The machine-hit classifier: each documented rule, alone and together. */
import { classifyHit, CLICK_TOO_SOON_MS, isAppleAddress, type HitFacts } from '#shared/domain/tracking/machine';

const CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const DELIVERED = '2026-11-22T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(DELIVERED) + ms);

function hit(overrides: Partial<HitFacts> = {}): HitFacts {
  return {
    method: 'GET',
    userAgent: CHROME,
    ip: '203.0.113.7',
    at: later(60_000),
    deliveredAt: DELIVERED,
    sentAt: '2026-11-22T09:59:59.000Z',
    kind: 'click',
    ...overrides,
  };
}

describe('classifyHit', () => {
  it('a browser GET a minute after delivery is a person', () => {
    expect(classifyHit(hit())).toEqual({ machine: false, reasons: [] });
    expect(classifyHit(hit({ kind: 'open', at: later(1) }))).toEqual({ machine: false, reasons: [] });
  });

  it('head_request: HEAD, whatever else', () => {
    expect(classifyHit(hit({ method: 'HEAD' }))).toEqual({ machine: true, reasons: ['head_request'] });
    expect(classifyHit(hit({ method: 'head', kind: 'open' }))).toEqual({ machine: true, reasons: ['head_request'] });
  });

  it('apple_mail_privacy: 17.0.0.0/8 (also IPv4-mapped) or the bare Mozilla/5.0 User-Agent', () => {
    for (const ip of ['17.0.0.1', '17.58.63.4', '::ffff:17.1.2.3'])
      expect(classifyHit(hit({ ip, kind: 'open' }))).toEqual({ machine: true, reasons: ['apple_mail_privacy'] });
    expect(classifyHit(hit({ userAgent: 'Mozilla/5.0', kind: 'open' }))).toEqual({ machine: true, reasons: ['apple_mail_privacy'] });
    for (const ip of ['170.0.0.1', '117.1.1.1', '18.0.0.1', '17.0.0.256', '2001:db8::17', null]) expect(isAppleAddress(ip)).toBe(false);
  });

  it.each([
    'Barracuda Sentinel (EE)',
    'Mozilla/5.0 (compatible; Mimecast URL Protect)',
    'Proofpoint URL Defense',
    'Microsoft Office Existence Discovery',
    'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)',
    'Mozilla/5.0 SafeLinks',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    'python-requests/2.31.0',
    'curl/8.5.0',
    'Go-http-client/1.1',
    'Googlebot/2.1 (+http://www.google.com/bot.html)',
    'Slackbot-LinkExpanding 1.0',
    'SomeCrawler/1.0',
    'Baiduspider',
  ])('link_scanner: %s', (userAgent) => {
    expect(classifyHit(hit({ userAgent }))).toEqual({ machine: true, reasons: ['link_scanner'] });
  });

  it('too_soon_after_delivery: clicks within 10 s of delivered_at (else sent_at); never opens', () => {
    expect(classifyHit(hit({ at: later(CLICK_TOO_SOON_MS - 1) }))).toEqual({ machine: true, reasons: ['too_soon_after_delivery'] });
    expect(classifyHit(hit({ at: later(CLICK_TOO_SOON_MS) }))).toEqual({ machine: false, reasons: [] });
    expect(classifyHit(hit({ at: later(-5_000) }))).toEqual({ machine: true, reasons: ['too_soon_after_delivery'] });
    expect(classifyHit(hit({ deliveredAt: null, sentAt: DELIVERED, at: later(3_000).toISOString() }))).toEqual({
      machine: true,
      reasons: ['too_soon_after_delivery'],
    });
    expect(classifyHit(hit({ deliveredAt: null, sentAt: null, at: later(1) }))).toEqual({ machine: false, reasons: [] });
    expect(classifyHit(hit({ kind: 'open', at: later(1) }))).toEqual({ machine: false, reasons: [] });
  });

  it('no_user_agent: missing or blank', () => {
    for (const userAgent of [null, undefined, '', '   '])
      expect(classifyHit(hit({ userAgent }))).toEqual({ machine: true, reasons: ['no_user_agent'] });
  });

  it('reports every matching rule, in the documented order', () => {
    expect(classifyHit(hit({ method: 'HEAD', ip: '17.2.3.4', userAgent: 'curl/8', at: later(100) }))).toEqual({
      machine: true,
      reasons: ['head_request', 'apple_mail_privacy', 'link_scanner', 'too_soon_after_delivery'],
    });
    expect(classifyHit(hit({ method: 'HEAD', userAgent: null, at: later(100) })).reasons).toEqual([
      'head_request',
      'too_soon_after_delivery',
      'no_user_agent',
    ]);
  });
});
