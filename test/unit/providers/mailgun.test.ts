/**
 * Mailgun adapter against the provider emulator: per-domain suppression lists in precedence order
 * (bounces, complaints, unsubscribes), paging.next followed to the empty last page, bounce kinds (4xx,
 * block text), tag opt-outs (current and legacy shapes), templates walked across domains (active
 * version, subject header, engine), domains with their records, webhooks per URL per source, and
 * failures: bad key (plain-text Forbidden), rate limit (X-RateLimit-Reset / retry-seconds), outage,
 * closed port, a path the key may not read, EU routing — never a key in a message.
 */
import type { MailgunSeed, MailgunTemplate, ProviderEmulator } from '#localstack/emulators/providers';
import type { ProviderCredentials, SourceSuppression } from '#shared/domain/imports/source';
import { MailgunSource } from '#shared/adapters/providers/mailgun';
import { data, facts, SHARED_WEBHOOK_URL } from '../../fixtures/providers/mailgun';
import { allUrls, closedPortUrl, countBy, providerErrorOf, providerRequestLog, readAll, seed, startEmulator, uniqueKey } from './harness';

const MAIN = 'mg.acme-mg.example';
const NEWS = 'news.acme-mg.example';

let emulator: ProviderEmulator;
const key = uniqueKey('key-fixture');
const creds = (apiKey: string, region: 'us' | 'eu' = 'us'): ProviderCredentials => ({ provider: 'mailgun', apiKey, region });
const source = (apiKey = key, region: 'us' | 'eu' = 'us') => new MailgunSource(creds(apiKey, region), emulator.urls);
/** The news domain alone, with one bounce. */
const small: MailgunSeed = {
  domains: [
    {
      ...data.domains[0]!,
      bounces: [{ address: 'a@example.com', code: '550', error: 'No such mailbox', created_at: 'Mon, 02 Dec 2024 09:00:00 GMT' }],
    },
  ],
};

beforeAll(async () => {
  emulator = await startEmulator();
  await seed(emulator, { provider: 'mailgun', api_key: key, data });
});

afterAll(async () => {
  await emulator.close();
});

async function readList(list: string, apiKey = key): Promise<{ items: SourceSuppression[]; pages: number }> {
  return readAll((page) => source(apiKey).listSuppressions(list, page));
}

describe('suppressions', () => {
  test('lists: every domain (by name) bounces, then complaints, then unsubscribes; whitelists never', async () => {
    const lists = await source().suppressionLists();
    expect(lists.map((l) => l.id)).toEqual([
      `domain:${MAIN}:bounces`,
      `domain:${NEWS}:bounces`,
      `domain:${MAIN}:complaints`,
      `domain:${NEWS}:complaints`,
      `domain:${MAIN}:unsubscribes`,
      `domain:${NEWS}:unsubscribes`,
    ]);
    expect(lists).toHaveLength(facts.suppressions.lists);
  });

  test('10,003 bounces in pages of 1000 following paging.next by address, ending on the empty page', async () => {
    const { items, pages } = await readList(`domain:${MAIN}:bounces`);
    expect(items).toHaveLength(facts.suppressions.bounces[MAIN].total);
    expect(pages).toBe(facts.suppressions.bounces[MAIN].pages_of_1000 + 1);
    expect(new Set(items.map((i) => i.email)).size).toBe(items.length);
    expect(countBy(items, (i) => i.kind)).toEqual({ hard_bounce: 10_001, soft_bounce: 1, block: 1 });
    const log = (await providerRequestLog(emulator.url, 'mailgun', key)).filter((r) => r.path.startsWith(`/v3/${MAIN}/bounces`));
    // By address: blocked@ and both-bounce-unsub@ sort before the 998 generated ones of the first page.
    expect(log[0]?.path).toBe(`/v3/${MAIN}/bounces?limit=1000`);
    expect(log[1]?.path).toMatch(
      /^\/v3\/mg\.acme-mg\.example\/bounces\?page=next&address=bounce-000997%40bulk\.mg-fixture\.example&limit=1000$/,
    );
    expect(log.every((r) => r.path.includes('limit=1000'))).toBe(true);
  });

  test('bounce kinds: 421 soft, spam-policy text block, detail the code; complaints; tags ["*"] and legacy tag "*" unsubscribe, other tags scoped', async () => {
    const lists = await source().suppressionLists();
    const all: SourceSuppression[] = [];
    for (const list of lists) all.push(...(await readList(list.id)).items);
    expect(all).toHaveLength(facts.suppressions.entries);
    expect(countBy(all, (i) => i.kind)).toEqual(facts.suppressions.kinds);
    const of = (email: string) => all.filter((i) => i.email === email).map((i) => [i.kind, i.detail]);
    expect(of(facts.suppressions.soft_bounce)).toEqual([['soft_bounce', '421']]);
    expect(of(facts.suppressions.block)).toEqual([['block', '550']]);
    expect(of(facts.suppressions.bounce_and_unsubscribe[0])).toEqual([
      ['hard_bounce', '550'],
      ['unsubscribe', null],
    ]);
    expect(of(facts.suppressions.complaint_and_unsubscribe[0])).toEqual([
      ['complaint', null],
      ['unsubscribe', null],
    ]);
    for (const [email, tags] of Object.entries(facts.suppressions.scoped_opt_outs)) expect(of(email)).toEqual([['scoped_opt_out', tags]]);
    expect(all.find((i) => i.email === facts.suppressions.soft_bounce)?.created_at).toBe('2024-12-02T10:00:00.000Z');
    const log = await providerRequestLog(emulator.url, 'mailgun', key);
    expect(log.some((r) => r.path.includes('whitelists'))).toBe(false);
  });

  test('an empty list is one empty page', async () => {
    expect(await readList(`domain:${NEWS}:complaints`)).toEqual({ items: [], pages: 1 });
  });
});

describe('templates', () => {
  test('templates are walked domain by domain with paging.next; ids are <domain>/<name>', async () => {
    const { items } = await readAll((p) => source().listTemplates(p));
    expect(items.map((t) => t.source_id)).toEqual([
      `${MAIN}/account-notice`,
      `${MAIN}/go-digest`,
      `${MAIN}/newsletter`,
      `${MAIN}/no-subject`,
      `${MAIN}/order-receipt`,
      `${NEWS}/weekly`,
    ]);
    expect(items).toHaveLength(facts.templates.total);
    expect(items.every((t) => t.alias === t.name && !t.is_layout)).toBe(true);
  });

  test('getTemplate reads the active version: subject from Subject or subject, engine go or handlebars, no text part', async () => {
    const receipt = await source().getTemplate(facts.templates.loop_conditional);
    expect(receipt).toMatchObject({
      name: 'order-receipt',
      alias: 'order-receipt',
      subject: 'Your order {{order_id}}',
      text: null,
      syntax: 'handlebars',
      layout: null,
    });
    expect(receipt.html).toContain('{{#each items}}');
    expect((await source().getTemplate(facts.templates.dotted_triple_whitespace)).subject).toBe('Notice for {{ user.first_name }}');
    expect((await source().getTemplate(facts.templates.no_subject)).subject).toBeNull();
    expect((await source().getTemplate(facts.templates.unsubscribe_link)).html).toContain('%unsubscribe_url%');
    expect((await source().getTemplate(facts.templates.go_engine)).syntax).toBe('go');
    const log = await providerRequestLog(emulator.url, 'mailgun', key);
    expect(log.some((r) => r.path === `/v3/${MAIN}/templates/order-receipt?active=yes`)).toBe(true);
  });

  test('130 templates on one domain take pages of 100 by the p pivot', async () => {
    const k = uniqueKey('key-templates');
    const templates: MailgunTemplate[] = Array.from({ length: 130 }, (_, i) => ({
      name: `t-${String(i).padStart(3, '0')}`,
      description: '',
      createdAt: 'Mon, 02 Dec 2024 10:00:00 UTC',
      createdBy: '',
      id: `id-${i}`,
      versions: [],
    }));
    await seed(emulator, { provider: 'mailgun', api_key: k, data: { domains: [{ ...data.domains[1]!, templates }] } });
    const { items } = await readAll((p) => source(k).listTemplates(p));
    expect(items.map((t) => t.name)).toEqual(templates.map((t) => t.name));
    const paths = (await providerRequestLog(emulator.url, 'mailgun', k)).map((r) => r.path).filter((p) => p.includes('/templates'));
    expect(paths).toEqual([
      `/v3/${MAIN}/templates?limit=100`,
      `/v3/${MAIN}/templates?page=next&p=t-099&limit=100`,
      `/v3/${MAIN}/templates?page=next&p=t-129&limit=100`,
    ]);
  });
});

describe('domains and webhooks', () => {
  test('domains: sending records and the receiving MX (host the domain); verified when active', async () => {
    const { items } = await readAll((p) => source().listDomains(p));
    expect(items.map((d) => [d.name, d.verified, d.source_id])).toEqual([
      [NEWS, false, '6750a1b2c3d4e5f6a7b8c9d1'],
      [MAIN, true, '6750a1b2c3d4e5f6a7b8c9d0'],
    ]);
    expect(items[1]?.records).toEqual([
      { type: 'TXT', host: MAIN, value: 'v=spf1 include:mailgun.org ~all' },
      { type: 'TXT', host: `pic._domainkey.${MAIN}`, value: 'k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GAcmeMg' },
      { type: 'CNAME', host: `email.${MAIN}`, value: 'mailgun.org' },
      { type: 'MX', host: MAIN, value: 'mxa.mailgun.org' },
      { type: 'MX', host: MAIN, value: 'mxb.mailgun.org' },
    ]);
  });

  test('webhooks: one per URL per domain (urls or legacy url), then the account level', async () => {
    const { items, pages } = await readAll((p) => source().listWebhooks(p));
    expect(pages).toBe(3);
    expect(items).toEqual([
      { source_id: `domain:${MAIN}:${SHARED_WEBHOOK_URL}`, url: SHARED_WEBHOOK_URL, events: ['opened', 'clicked'], enabled: true },
      {
        source_id: `domain:${MAIN}:https://analytics.acme.example/opens`,
        url: 'https://analytics.acme.example/opens',
        events: ['opened'],
        enabled: true,
      },
      {
        source_id: `domain:${MAIN}:https://hooks.acme.example/deliveries`,
        url: 'https://hooks.acme.example/deliveries',
        events: ['delivered', 'permanent_fail'],
        enabled: true,
      },
      {
        source_id: `domain:${MAIN}:https://legacy.acme.example/mailgun-drops`,
        url: 'https://legacy.acme.example/mailgun-drops',
        events: ['drop'],
        enabled: true,
      },
      { source_id: `domain:${NEWS}:${SHARED_WEBHOOK_URL}`, url: SHARED_WEBHOOK_URL, events: ['complained'], enabled: true },
      {
        source_id: `account:${SHARED_WEBHOOK_URL}`,
        url: SHARED_WEBHOOK_URL,
        events: ['delivered', 'permanent_fail', 'complained', 'unsubscribed'],
        enabled: true,
      },
      {
        source_id: 'account:https://hooks.acme.example/accepted',
        url: 'https://hooks.acme.example/accepted',
        events: ['accepted'],
        enabled: true,
      },
    ]);
    expect(items).toHaveLength(facts.webhooks.total);
    expect(items.filter((w) => w.url === SHARED_WEBHOOK_URL)).toHaveLength(facts.webhooks.sharing_url);
  });
});

describe('failures', () => {
  test('an unknown key is auth (401 plain-text Forbidden); neither the key nor its Basic form is quoted', async () => {
    const bad = 'key-unknown-0123456789abcdef';
    const err = await providerErrorOf(() => source(bad).checkAccess());
    expect(err.failure.kind).toBe('auth');
    expect(err.message).toContain('Forbidden');
    expect(err.message).not.toContain(bad);
    expect(err.message).not.toContain(Buffer.from(`api:${bad}`).toString('base64'));
  });

  test('a 429 is rate_limited for the wait Mailgun announces (X-RateLimit-Reset, retry-seconds)', async () => {
    const k = uniqueKey('key-rate');
    await seed(emulator, {
      provider: 'mailgun',
      api_key: k,
      data: small,
      faults: { rate_limit_after_requests: 0, retry_after_seconds: 45 },
    });
    const err = await providerErrorOf(() => source(k).checkAccess());
    expect(err.failure.kind).toBe('rate_limited');
    const retry = err.failure.kind === 'rate_limited' ? err.failure.retryAfterSeconds : 0;
    expect(retry).toBeGreaterThanOrEqual(44);
    expect(retry).toBeLessThanOrEqual(45);
    await source(k).checkAccess();
  });

  test('an outage and a closed port are unavailable', async () => {
    const k = uniqueKey('key-down');
    await seed(emulator, { provider: 'mailgun', api_key: k, data: small, faults: { unavailable: true } });
    expect((await providerErrorOf(() => source(k).suppressionLists())).failure.kind).toBe('unavailable');
    const closed = await closedPortUrl();
    const refused = await providerErrorOf(() => new MailgunSource(creds(k), allUrls(closed)).checkAccess());
    expect(refused.failure.kind).toBe('unavailable');
    expect(refused.message).not.toContain(k);
  });

  test('a list the key may not read (403) is not_permitted; an unknown domain (404) too', async () => {
    const k = uniqueKey('key-forbidden');
    await seed(emulator, { provider: 'mailgun', api_key: k, data: small, faults: { forbidden_paths: [`/v3/${NEWS}/complaints`] } });
    expect((await providerErrorOf(() => source(k).listSuppressions(`domain:${NEWS}:complaints`, null))).failure.kind).toBe('not_permitted');
    expect((await source(k).listSuppressions(`domain:${NEWS}:bounces`, null)).items).toHaveLength(1);
    expect((await providerErrorOf(() => source(k).listSuppressions('domain:gone.example:bounces', null))).failure.kind).toBe(
      'not_permitted',
    );
  });

  test('region eu reads the EU host; the key is unknown on the US host', async () => {
    const k = uniqueKey('key-eu');
    await seed(emulator, { provider: 'mailgun', api_key: k, region: 'eu', data: small });
    expect((await source(k, 'eu').listSuppressions(`domain:${NEWS}:bounces`, null)).items).toHaveLength(1);
    expect((await source(k, 'eu').suppressionLists()).map((l) => l.id)).toEqual([
      `domain:${NEWS}:bounces`,
      `domain:${NEWS}:complaints`,
      `domain:${NEWS}:unsubscribes`,
    ]);
    expect((await providerErrorOf(() => source(k, 'us').checkAccess())).failure.kind).toBe('auth');
    const log = await providerRequestLog(emulator.url, 'mailgun', k);
    expect(new Set(log.map((r) => r.region))).toEqual(new Set(['eu']));
  });
});
