/**
 * Inbound routes' match and choice (shared/domain/domains/inbound-routes.ts; the MX listener's refusal:
 * test/unit/mx/mx-server.test.ts; end to end: test/integration/inbound-routes.test.ts): the first route whose match
 * holds decides; each recipient pattern and sender pattern as documented; who gets email.received for an account's
 * recipients; the request's rules.
 */
import { inboundRoutesSchema, receivedAudience, routeFor, type InboundRoute } from '#shared/domain/domains/inbound-routes';

const route = (recipient: string, action: InboundRoute['action'], sender?: string): InboundRoute => ({
  match: { recipient, ...(sender ? { sender } : {}) },
  action,
});
const STORE = { type: 'store' } as const;

describe('routeFor', () => {
  it('matches a local part with or without its +tag, tagged only, by prefix and every recipient, case-insensitively', () => {
    const routes = [route('billing', STORE), route('support+*', STORE), route('team-*', STORE), route('*', { type: 'refuse' })];
    const matched = (recipient: string) => routeFor(routes, recipient, 'a@example.org')?.match.recipient;
    expect(matched('Billing@inbound.a.test')).toBe('billing');
    expect(matched('billing+march@inbound.a.test')).toBe('billing');
    expect(matched('billingx@inbound.a.test')).toBe('*');
    expect(matched('support+42@inbound.a.test')).toBe('support+*');
    expect(matched('support@inbound.a.test')).toBe('*');
    expect(matched('support+@inbound.a.test')).toBe('*');
    expect(matched('team-ops@inbound.a.test')).toBe('team-*');
    expect(matched('anyone@inbound.a.test')).toBe('*');
  });

  it('takes the first route that holds, the sender by address or by domain and its subdomains', () => {
    const routes = [
      route('*', { type: 'refuse' }, '@blocked.example'),
      route('help', { type: 'webhooks' }, 'vip@example.org'),
      route('help', STORE),
    ];
    expect(routeFor(routes, 'help@inbound.a.test', 'x@mail.blocked.example')?.action.type).toBe('refuse');
    expect(routeFor(routes, 'help@inbound.a.test', 'x@notblocked.example')?.action.type).toBe('store');
    expect(routeFor(routes, 'help@inbound.a.test', 'VIP@example.org')?.action.type).toBe('webhooks');
    expect(routeFor(routes, 'other@inbound.a.test', 'vip@example.org')).toBeNull();
    expect(routeFor(routes, 'help@inbound.a.test', '')?.action.type).toBe('store');
    expect(routeFor([], 'help@inbound.a.test', '')).toBeNull();
  });
});

describe('receivedAudience', () => {
  const routes = [
    route('a', { type: 'webhooks', webhook_ids: ['wh_1'] }),
    route('b', { type: 'webhooks', webhook_ids: ['wh_2', 'wh_1'] }),
    route('all', { type: 'webhooks' }),
    route('quiet', STORE),
  ];
  it('is every subscribed endpoint when a recipient has no route or an all-endpoints route', () => {
    expect(receivedAudience(routes, ['a@x.test', 'nobody@x.test'], '')).toEqual({ kind: 'all' });
    expect(receivedAudience(routes, ['all@x.test', 'a@x.test'], '')).toEqual({ kind: 'all' });
    expect(receivedAudience(undefined, ['a@x.test'], '')).toEqual({ kind: 'all' });
  });
  it('is the union of the routes’ endpoints, or none when every recipient is stored only', () => {
    expect(receivedAudience(routes, ['a@x.test', 'b@x.test', 'quiet@x.test'], '')).toEqual({ kind: 'only', webhookIds: ['wh_1', 'wh_2'] });
    expect(receivedAudience(routes, ['quiet@x.test', 'quiet+1@x.test'], '')).toEqual({ kind: 'none' });
    // A refuse route set after the MX accepted the mail (it refuses at RCPT TO): recorded, no webhook, as store.
    expect(receivedAudience([route('*', { type: 'refuse' })], ['late@x.test'], '')).toEqual({ kind: 'none' });
    // A forward route's mail goes to its addresses, not to webhooks.
    expect(receivedAudience([route('*', { type: 'forward', to: ['a@b.test'] })], ['f@x.test'], '')).toEqual({ kind: 'none' });
  });
});

describe('the routes a PUT takes', () => {
  const parse = (routes: unknown[]) => inboundRoutesSchema.safeParse({ routes });
  it('takes the documented patterns and actions, lower-cased', () => {
    const parsed = parse([
      {
        match: { recipient: 'Billing', sender: '@Example.org' },
        action: { type: 'webhooks', webhook_ids: ['wh_01JD8Z6Q0R5M3W2K9X7V4T1B8N'] },
      },
      { match: { recipient: '*' }, action: { type: 'refuse', message: 'No.' } },
    ]);
    expect(parsed.success && parsed.data.routes[0]!.match).toEqual({ recipient: 'billing', sender: '@example.org' });
  });
  it('takes a forward route’s addresses lower-cased, once each, at most five', () => {
    const parsed = parse([
      { match: { recipient: 'a' }, action: { type: 'forward', to: ['Ops@Example.org', 'ops@example.org', 'b@example.org'] } },
    ]);
    expect(parsed.success && parsed.data.routes[0]!.action).toEqual({ type: 'forward', to: ['ops@example.org', 'b@example.org'] });
    const six = Array.from({ length: 6 }, (_, i) => `a${i}@example.org`);
    expect(parse([{ match: { recipient: 'a' }, action: { type: 'forward', to: six } }]).success).toBe(false);
    expect(parse([{ match: { recipient: 'a' }, action: { type: 'forward', to: six.slice(0, 5) } }]).success).toBe(true);
    for (const bad of [[], ['Ops <ops@example.org>'], ['not an address']])
      expect(parse([{ match: { recipient: 'a' }, action: { type: 'forward', to: bad } }]).success).toBe(false);
  });
  it('refuses a pattern with @ or a * inside, an unknown action, a non-ASCII refusal, too many routes', () => {
    for (const bad of [
      [{ match: { recipient: 'a@b.test' }, action: STORE }],
      [{ match: { recipient: 'a*b' }, action: STORE }],
      [{ match: { recipient: 'a' }, action: { type: 'forward' } }],
      [{ match: { recipient: 'a' }, action: { type: 'refuse', message: 'nein \u00fc' } }],
      [{ match: { recipient: 'a' }, action: { type: 'webhooks', webhook_ids: ['msg_1'] } }],
      [{ match: { recipient: 'a', sender: 'not an address' }, action: STORE }],
      Array.from({ length: 51 }, () => ({ match: { recipient: '*' }, action: STORE })),
    ])
      expect(parse(bad).success).toBe(false);
  });
});
