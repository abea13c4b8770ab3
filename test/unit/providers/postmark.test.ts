/**
 * Postmark adapter against the provider emulator: suppression dumps per stream in precedence order
 * (hard bounces, complaints, manual) cut into pages of 1000, what a recipient's opt-out means per
 * stream type, templates with their layout, domains (account token only), webhooks (triggers and
 * legacy server hooks), and failures: bad server/account token, rate limit (429 without headers: 60 s),
 * outage, closed port, a path the token cannot read — with no token ever in a message.
 */
import type { PostmarkSeed, PostmarkTemplate, ProviderEmulator } from '#localstack/emulators/providers';
import type { ProviderCredentials, SourceSuppression } from '#shared/domain/imports/source';
import { PostmarkSource } from '#shared/adapters/providers/postmark';
import { data, facts, INBOUND_HOOK_URL, LEGACY_HOOK_URL, SHARED_WEBHOOK_URL } from '../../fixtures/providers/postmark';
import { allUrls, closedPortUrl, countBy, providerErrorOf, providerRequestLog, readAll, seed, startEmulator, uniqueKey } from './harness';

let emulator: ProviderEmulator;
const serverToken = uniqueKey('pm-server');
const accountToken = uniqueKey('pm-account');
const creds = (apiKey: string, accountApiKey: string | null = null): ProviderCredentials => ({
  provider: 'postmark',
  apiKey,
  accountApiKey: accountApiKey ?? undefined,
  region: 'us',
});
/** null: no account token. */
const source = (apiKey = serverToken, accountApiKey: string | null = accountToken) =>
  new PostmarkSource(creds(apiKey, accountApiKey), emulator.urls);
const small: PostmarkSeed = {
  ...data,
  suppressions: {
    outbound: [
      { EmailAddress: 'a@example.com', SuppressionReason: 'HardBounce', Origin: 'Recipient', CreatedAt: '2024-12-01T00:00:00-05:00' },
    ],
  },
};

beforeAll(async () => {
  emulator = await startEmulator();
  await seed(emulator, { provider: 'postmark', api_key: serverToken, account_api_key: accountToken, data });
});

afterAll(async () => {
  await emulator.close();
});

async function readList(list: string, apiKey = serverToken): Promise<{ items: SourceSuppression[]; pages: number }> {
  return readAll((page) => source(apiKey).listSuppressions(list, page));
}

describe('suppressions', () => {
  test('lists: every stream hard bounces, then complaints, then manual; inbound and archived streams left out', async () => {
    const lists = await source().suppressionLists();
    expect(lists.map((l) => l.id)).toEqual([
      'stream:outbound:HardBounce',
      'stream:receipts:HardBounce',
      'stream:broadcast:HardBounce',
      'stream:outbound:SpamComplaint',
      'stream:receipts:SpamComplaint',
      'stream:broadcast:SpamComplaint',
      'stream:outbound:ManualSuppression:Transactional',
      'stream:receipts:ManualSuppression:Transactional',
      'stream:broadcast:ManualSuppression:Broadcasts',
    ]);
    expect(lists).toHaveLength(facts.suppressions.lists);
    expect(lists[0]?.label).toBe('Postmark stream outbound, hard bounces');
  });

  test('the 10,001 hard bounces of outbound come in 11 pages of at most 1000, a page per source re-reading the dump by reason', async () => {
    const { items, pages } = await readList('stream:outbound:HardBounce');
    expect(pages).toBe(facts.suppressions.outbound_hard_bounce_pages_of_1000);
    expect(items).toHaveLength(facts.suppressions.HardBounce.outbound);
    expect(new Set(items.map((i) => i.email)).size).toBe(items.length);
    expect(items.every((i) => i.kind === 'hard_bounce' && i.detail === null)).toBe(true);
    expect(items[0]).toEqual({
      email: 'bounce-and-unsub@pm-fixture.example',
      kind: 'hard_bounce',
      detail: null,
      created_at: '2024-12-01T05:10:00.000Z',
    });
    const log = await providerRequestLog(emulator.url, 'postmark', serverToken);
    const dumps = log.filter((r) => r.path.startsWith('/message-streams/outbound/suppressions/dump'));
    // A source per page here (as a chain of requests would): each page reads the dump again.
    expect(dumps).toHaveLength(11);
    expect(dumps.every((r) => r.path.endsWith('?SuppressionReason=HardBounce'))).toBe(true);
  });

  test('one source (one import request) reads a dump once for all its pages', async () => {
    const k = uniqueKey('pm-once-');
    await seed(emulator, { provider: 'postmark', api_key: k, account_api_key: `${k}-account`, data });
    const one = source(k, `${k}-account`);
    const { pages } = await readAll((page) => one.listSuppressions('stream:outbound:HardBounce', page));
    expect(pages).toBe(facts.suppressions.outbound_hard_bounce_pages_of_1000);
    const dumps = (await providerRequestLog(emulator.url, 'postmark', k)).filter((r) =>
      r.path.startsWith('/message-streams/outbound/suppressions/dump'),
    );
    expect(dumps).toHaveLength(1);
  });

  test('kinds: complaints; a recipient opt-out is unsubscribe on a transactional stream, scoped to a broadcast stream; customer and staff entries are manual', async () => {
    const lists = await source().suppressionLists();
    const all: SourceSuppression[] = [];
    for (const list of lists) all.push(...(await readList(list.id)).items);
    expect(all).toHaveLength(facts.suppressions.entries);
    expect(countBy(all, (i) => i.kind)).toEqual(facts.suppressions.kinds);
    const of = (email: string) => all.filter((i) => i.email === email).map((i) => [i.kind, i.detail]);
    expect(of('reader-1@pm-fixture.example')).toEqual([['scoped_opt_out', 'broadcast']]);
    expect(of('unsub-only@pm-fixture.example')).toEqual([['unsubscribe', null]]);
    expect(facts.suppressions.manual.map((e) => of(e))).toEqual([[['manual', null]], [['manual', null]], [['manual', null]]]);
    expect(of(facts.suppressions.bounce_and_unsubscribe[0])).toEqual([
      ['hard_bounce', null],
      ['unsubscribe', null],
    ]);
    expect(of(facts.suppressions.complaint_and_unsubscribe[0])).toEqual([
      ['complaint', null],
      ['unsubscribe', null],
    ]);
    expect(of(facts.suppressions.never_read[0])).toEqual([]);
  });
});

describe('templates', () => {
  test('templates and layouts are listed; a template using a layout comes with it', async () => {
    const { items, pages } = await readAll((p) => source().listTemplates(p));
    expect(pages).toBe(1);
    expect(items).toHaveLength(facts.templates.total);
    expect(items.filter((t) => t.is_layout).map((t) => t.alias)).toEqual([facts.templates.layout_alias]);
    const welcome = await source().getTemplate(String(facts.templates.uses_layout));
    expect(welcome).toMatchObject({
      source_id: '8002',
      name: 'Welcome',
      alias: 'welcome',
      subject: 'Welcome, {{name}}!',
      syntax: 'mustachio',
    });
    expect(welcome.html).toContain('{{^has_orders}}');
    expect(welcome.layout).toEqual({
      alias: 'basic',
      html: '<html><body><div class="wrapper">{{{@content}}}</div><p>{{company_name}}</p></body></html>',
      text: '{{{ @content }}}\n\n{{company_name}}',
    });
    const log = await providerRequestLog(emulator.url, 'postmark', serverToken);
    expect(log.some((r) => r.path === '/templates/basic')).toBe(true);
    expect(log.some((r) => r.path === '/templates?Count=100&Offset=0&TemplateType=All')).toBe(true);
  });

  test('dotted variables, an empty subject (none), an unsubscribe link, a template without alias or layout', async () => {
    expect((await source().getTemplate(String(facts.templates.dotted_triple_whitespace))).html).toContain('{{{ signature_html }}}');
    expect((await source().getTemplate(String(facts.templates.empty_subject))).subject).toBeNull();
    const newsletter = await source().getTemplate(String(facts.templates.unsubscribe_link));
    expect(newsletter).toMatchObject({ alias: null, layout: null });
    expect(newsletter.html).toContain('{{{ pm:unsubscribe }}}');
  });

  test('150 templates take two pages of 100 by Offset', async () => {
    const k = uniqueKey('pm-templates');
    const templates: PostmarkTemplate[] = Array.from({ length: 150 }, (_, i) => ({
      TemplateId: 20000 + i,
      Name: `T${i}`,
      Alias: `t-${i}`,
      Subject: 's',
      HtmlBody: 'h',
      TextBody: null,
      AssociatedServerId: 1,
      Active: true,
      TemplateType: 'Standard',
      LayoutTemplate: null,
    }));
    await seed(emulator, { provider: 'postmark', api_key: k, data: { ...data, templates } });
    const { items, pages } = await readAll((p) => source(k, null).listTemplates(p));
    expect(pages).toBe(2);
    expect(items.map((t) => t.source_id)).toEqual(templates.map((t) => String(t.TemplateId)));
  });

  test('an unknown template (422 ErrorCode 1101) is not_permitted', async () => {
    const err = await providerErrorOf(() => source().getTemplate('999999'));
    expect(err.failure.kind).toBe('not_permitted');
    expect(err.message).toContain('422');
  });
});

describe('domains and webhooks', () => {
  test('domains need the account token: without it, not_permitted naming account_api_key (no request made)', async () => {
    const k = uniqueKey('pm-noaccount');
    await seed(emulator, { provider: 'postmark', api_key: k, data: small });
    const err = await providerErrorOf(() => source(k, null).listDomains(null));
    expect(err.failure.kind).toBe('not_permitted');
    expect(err.message).toContain('account_api_key');
    expect(await providerRequestLog(emulator.url, 'postmark', k)).toEqual([]);
  });

  test('domains with the account token: SPF, DKIM (current or pending) and return-path records', async () => {
    const { items } = await readAll((p) => source().listDomains(p));
    expect(items).toEqual([
      {
        source_id: '41001',
        name: 'acme-pm.example',
        verified: true,
        records: [
          { type: 'TXT', host: 'acme-pm.example', value: 'v=spf1 a mx include:spf.mtasv.net ~all' },
          {
            type: 'TXT',
            host: '20241201000000pm._domainkey.acme-pm.example',
            value: 'k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCAcmePm',
          },
          { type: 'CNAME', host: 'pm-bounces.acme-pm.example', value: 'pm.mtasv.net' },
        ],
      },
      {
        source_id: '41002',
        name: 'news-pm.example',
        verified: false,
        records: [
          { type: 'TXT', host: 'news-pm.example', value: 'v=spf1 a mx include:spf.mtasv.net ~all' },
          {
            type: 'TXT',
            host: '20250301000000pm._domainkey.news-pm.example',
            value: 'k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCNewsPm',
          },
          { type: 'CNAME', host: 'pm-bounces.news-pm.example', value: 'pm.mtasv.net' },
        ],
      },
    ]);
  });

  test('a wrong account token is auth', async () => {
    const bad = 'pm-wrong-account-token';
    const err = await providerErrorOf(() => source(serverToken, bad).listDomains(null));
    expect(err.failure.kind).toBe('auth');
    expect(err.message).toContain('account token');
    expect(err.message).not.toContain(bad);
  });

  test('webhooks: enabled triggers as events, two share a URL, legacy server hooks grouped by URL, inbound hook', async () => {
    const { items } = await readAll((p) => source().listWebhooks(p));
    expect(items).toEqual([
      { source_id: '91001', url: SHARED_WEBHOOK_URL, events: ['delivery', 'bounce', 'spam_complaint', 'open'], enabled: true },
      { source_id: '91002', url: SHARED_WEBHOOK_URL, events: ['open', 'click', 'subscription_change'], enabled: true },
      { source_id: '91003', url: 'https://hooks.acme.example/paused', events: [], enabled: false },
      { source_id: `server-hook:${LEGACY_HOOK_URL}`, url: LEGACY_HOOK_URL, events: ['bounce', 'open'], enabled: true },
      { source_id: `server-hook:${INBOUND_HOOK_URL}`, url: INBOUND_HOOK_URL, events: ['inbound'], enabled: true },
    ]);
    expect(items).toHaveLength(facts.webhooks.total);
  });
});

describe('failures', () => {
  test('an unknown server token is auth (401 ErrorCode 10), never quoted', async () => {
    const bad = 'pm-unknown-server-token';
    const err = await providerErrorOf(() => source(bad, null).checkAccess());
    expect(err.failure.kind).toBe('auth');
    expect(err.message).toContain('valid Server token');
    expect(err.message).not.toContain(bad);
  });

  test('a 429 (no rate-limit headers) is rate_limited for 60 s', async () => {
    const k = uniqueKey('pm-rate');
    await seed(emulator, { provider: 'postmark', api_key: k, data: small, faults: { rate_limit_after_requests: 2, rate_limit_count: 2 } });
    await source(k, null).checkAccess();
    await source(k, null).listSuppressions('stream:outbound:HardBounce', null);
    for (let i = 0; i < 2; i += 1) {
      const err = await providerErrorOf(() => source(k, null).listSuppressions('stream:outbound:HardBounce', null));
      expect(err.failure).toEqual({ kind: 'rate_limited', retryAfterSeconds: 60, message: expect.stringContaining('429') });
      expect(err.message).not.toContain(k);
    }
    expect((await source(k, null).listSuppressions('stream:outbound:HardBounce', null)).items).toHaveLength(1);
  });

  test('an outage and a closed port are unavailable', async () => {
    const k = uniqueKey('pm-down');
    await seed(emulator, { provider: 'postmark', api_key: k, data: small, faults: { unavailable: true } });
    expect((await providerErrorOf(() => source(k, null).suppressionLists())).failure.kind).toBe('unavailable');
    const closed = await closedPortUrl();
    const refused = await providerErrorOf(() => new PostmarkSource(creds(k), allUrls(closed)).checkAccess());
    expect(refused.failure.kind).toBe('unavailable');
    expect(refused.message).not.toContain(k);
  });

  test('a path the token cannot read (404) is not_permitted', async () => {
    const k = uniqueKey('pm-forbidden');
    await seed(emulator, { provider: 'postmark', api_key: k, data: small, faults: { forbidden_paths: ['/webhooks'] } });
    expect((await providerErrorOf(() => source(k, null).listWebhooks(null))).failure.kind).toBe('not_permitted');
    expect((await source(k, null).listSuppressions('stream:outbound:HardBounce', null)).items).toHaveLength(1);
  });
});
