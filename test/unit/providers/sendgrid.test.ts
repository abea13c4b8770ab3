/**
 * SendGrid adapter against the provider emulator: every list read across page boundaries (counts from
 * the fixture's facts), the precedence order of the suppression lists, kinds and details of the awkward
 * entries, templates (active version, syntax), domains (both dns key sets), webhooks (flags, the legacy
 * fallback), and failures: bad key, rate limit (X-RateLimit-Reset), outage, closed port, missing scope,
 * EU routing — with the key never in a message.
 */
import type { ProviderEmulator, SendgridSeed, SendgridTemplate } from '#localstack/emulators/providers';
import type { ProviderCredentials, SourceSuppression } from '#shared/domain/imports/source';
import { SendgridSource } from '#shared/adapters/providers/sendgrid';
import { data, facts, SHARED_WEBHOOK_URL } from '../../fixtures/providers/sendgrid';
import { allUrls, closedPortUrl, countBy, providerErrorOf, providerRequestLog, readAll, seed, startEmulator, uniqueKey } from './harness';

let emulator: ProviderEmulator;
const key = uniqueKey('SG.fixture');
const creds = (apiKey: string, region: 'us' | 'eu' = 'us'): ProviderCredentials => ({ provider: 'sendgrid', apiKey, region });
const source = (apiKey = key, region: 'us' | 'eu' = 'us') => new SendgridSource(creds(apiKey, region), emulator.urls);
const small: SendgridSeed = { bounces: [{ created: 1733011200, email: 'a@example.com', reason: '550 5.1.1 unknown', status: '5.1.1' }] };

beforeAll(async () => {
  emulator = await startEmulator();
  await seed(emulator, { provider: 'sendgrid', api_key: key, data });
});

afterAll(async () => {
  await emulator.close();
});

async function readList(list: string, apiKey = key): Promise<{ items: SourceSuppression[]; pages: number }> {
  return readAll((page) => source(apiKey).listSuppressions(list, page));
}

describe('suppressions', () => {
  test('lists come in precedence order: bounces, spam reports, invalid, blocks, global unsubscribes, then one per group', async () => {
    const lists = await source().suppressionLists();
    expect(lists.map((l) => l.id)).toEqual([
      'bounces',
      'spam_reports',
      'invalid_emails',
      'blocks',
      'unsubscribes',
      'group:17001:Newsletters',
      'group:17002:Product updates',
    ]);
    expect(lists).toHaveLength(facts.suppressions.lists);
    expect(lists[5]?.label).toContain('Newsletters');
  });

  test('the bounce list is read across its 21 pages of 500 by offset; 5.x.x is hard, 4.x.x soft', async () => {
    const { items, pages } = await readList('bounces');
    expect(pages).toBe(facts.suppressions.bounces.pages_of_500);
    expect(items).toHaveLength(facts.suppressions.bounces.total);
    expect(new Set(items.map((i) => i.email)).size).toBe(facts.suppressions.bounces.total);
    expect(countBy(items, (i) => i.kind)).toEqual({
      hard_bounce: facts.suppressions.bounces.status_5xx,
      soft_bounce: facts.suppressions.bounces.status_4xx,
    });
    expect(items.find((i) => i.email === facts.suppressions.soft_bounce)).toEqual({
      email: facts.suppressions.soft_bounce,
      kind: 'soft_bounce',
      detail: '4.2.2',
      created_at: '2024-12-01T00:00:30.000Z',
    });
    const log = await providerRequestLog(emulator.url, 'sendgrid', key);
    const offsets = log
      .filter((r) => r.path.startsWith('/v3/suppression/bounces?'))
      .map((r) => new URLSearchParams(r.path.split('?')[1]).get('offset'));
    expect(offsets.slice(0, 3)).toEqual(['0', '500', '1000']);
    expect(log.filter((r) => r.path.startsWith('/v3/suppression/bounces?') && !r.path.includes('limit=500'))).toEqual([]);
  });

  test('the other lists: complaints, invalid, blocks (with status), global unsubscribes, group opt-outs scoped to the group name', async () => {
    const spam = (await readList('spam_reports')).items;
    expect(spam).toHaveLength(facts.suppressions.spam_reports);
    expect(spam.map((i) => [i.email, i.kind])).toEqual([
      ['complainer@sg-fixture.example', 'complaint'],
      ['complainer-unsub@sg-fixture.example', 'complaint'],
    ]);
    const invalid = (await readList('invalid_emails')).items;
    expect(invalid).toEqual([{ email: facts.suppressions.invalid, kind: 'invalid', detail: null, created_at: '2024-12-01T00:01:20.000Z' }]);
    const blocks = (await readList('blocks')).items;
    expect(blocks.map((b) => [b.email, b.kind, b.detail])).toEqual([
      ['blocked-ip@sg-fixture.example', 'block', '4.0.0'],
      ['content-filtered@sg-fixture.example', 'block', '5.7.1'],
    ]);
    const unsubscribes = (await readList('unsubscribes')).items;
    expect(unsubscribes).toHaveLength(facts.suppressions.unsubscribes);
    expect(unsubscribes.every((u) => u.kind === 'unsubscribe' && u.detail === null)).toBe(true);
    const newsletters = await readList('group:17001:Newsletters');
    expect(newsletters.items).toEqual([
      { email: 'reader-1@sg-fixture.example', kind: 'scoped_opt_out', detail: 'Newsletters', created_at: null },
      { email: 'reader-2@sg-fixture.example', kind: 'scoped_opt_out', detail: 'Newsletters', created_at: null },
      { email: 'unsub-and-group@sg-fixture.example', kind: 'scoped_opt_out', detail: 'Newsletters', created_at: null },
    ]);
    const updates = (await readList('group:17002:Product updates')).items;
    expect(updates.map((u) => u.email)).toEqual(['reader-1@sg-fixture.example', 'updates-only@sg-fixture.example']);
  });

  test('addresses on two lists appear on both (the mapping decides precedence)', async () => {
    const bounces = (await readList('bounces')).items;
    const unsubscribes = (await readList('unsubscribes')).items;
    const spam = (await readList('spam_reports')).items;
    for (const email of facts.suppressions.bounce_and_unsubscribe) {
      expect(bounces.find((b) => b.email === email)?.kind).toBe('hard_bounce');
      expect(unsubscribes.some((u) => u.email === email)).toBe(true);
    }
    for (const email of facts.suppressions.complaint_and_unsubscribe) {
      expect(spam.some((s) => s.email === email)).toBe(true);
      expect(unsubscribes.some((u) => u.email === email)).toBe(true);
    }
    const lists = await source().suppressionLists();
    let total = 0;
    for (const list of lists) total += (await readList(list.id)).items.length;
    expect(total).toBe(facts.suppressions.entries);
  });

  test('a group list longer than 1000 is cut into pages of 1000', async () => {
    const k = uniqueKey('SG.groups');
    const emails = Array.from({ length: 2500 }, (_, i) => `g${String(i).padStart(4, '0')}@example.com`);
    await seed(emulator, {
      provider: 'sendgrid',
      api_key: k,
      data: { asm_groups: [{ group: { id: 9, name: 'Big', description: '', is_default: false }, suppressions: emails }] },
    });
    const { items, pages } = await readList('group:9:Big', k);
    expect(pages).toBe(3);
    expect(items.map((i) => i.email)).toEqual(emails);
  });
});

describe('templates', () => {
  test('one page of templates (legacy and dynamic), none a layout', async () => {
    const { items, pages } = await readAll((p) => source().listTemplates(p));
    expect(pages).toBe(1);
    expect(items).toHaveLength(facts.templates.total);
    expect(items.every((t) => !t.is_layout && t.alias === null)).toBe(true);
    const log = await providerRequestLog(emulator.url, 'sendgrid', key);
    const call = log.find((r) => r.path.startsWith('/v3/templates?'));
    expect(call?.path).toContain('generations=legacy%2Cdynamic');
    expect(call?.path).toContain('page_size=200');
  });

  test('getTemplate uses the active version; dynamic is handlebars, legacy sendgrid_legacy; an empty subject is none', async () => {
    const receipt = await source().getTemplate(facts.templates.loop_conditional);
    expect(receipt).toMatchObject({
      name: 'Order receipt',
      syntax: 'handlebars',
      subject: 'Your receipt {{orderId}}',
      layout: null,
      alias: null,
    });
    expect(receipt.html).toContain('{{#each items}}');
    expect(receipt.html).toContain('{{#if discount}}');
    const notice = await source().getTemplate(facts.templates.dotted_triple_whitespace);
    expect(notice.subject).toBe('{{{company.name}}}: notice for {{ user.first_name }}');
    expect(notice.html).toContain('{{  user.address.country  }}');
    expect((await source().getTemplate(facts.templates.no_subject)).subject).toBeNull();
    expect((await source().getTemplate(facts.templates.unsubscribe_link)).html).toContain('{{{unsubscribe}}}');
    const legacy = await source().getTemplate(facts.templates.legacy_body);
    expect(legacy).toMatchObject({ syntax: 'sendgrid_legacy', subject: '<%subject%>' });
    expect(legacy.html).toContain('<%body%>');
    expect(await source().getTemplate(facts.templates.without_versions)).toMatchObject({
      subject: null,
      html: null,
      text: null,
      syntax: 'sendgrid_legacy',
    });
  });

  test('more than 200 templates are read over pages by page_token', async () => {
    const k = uniqueKey('SG.templates');
    const templates: SendgridTemplate[] = Array.from({ length: 205 }, (_, i) => ({
      id: `d-${String(i).padStart(32, '0')}`,
      name: `T${i}`,
      generation: i % 2 ? 'dynamic' : 'legacy',
      updated_at: '2024-12-01 00:00:00',
      versions: [],
    }));
    await seed(emulator, { provider: 'sendgrid', api_key: k, data: { templates } });
    const { items, pages } = await readAll((p) => source(k).listTemplates(p));
    expect(pages).toBe(2);
    expect(items.map((t) => t.source_id)).toEqual(templates.map((t) => t.id));
    const log = await providerRequestLog(emulator.url, 'sendgrid', k);
    expect(log[1]?.path).toContain('page_token=');
  });

  test('a template deleted since it was listed is not_permitted', async () => {
    const err = await providerErrorOf(() => source().getTemplate('d-00000000000000000000000000000000'));
    expect(err.failure.kind).toBe('not_permitted');
  });
});

describe('domains and webhooks', () => {
  test('domains carry records of both dns key sets', async () => {
    const { items } = await readAll((p) => source().listDomains(p));
    expect(items.map((d) => [d.source_id, d.name, d.verified])).toEqual([
      ['5101', 'acme-sg.example', true],
      ['5102', 'news-sg.example', false],
    ]);
    expect(items[0]?.records).toEqual([
      { type: 'MX', host: 'em5101.acme-sg.example', value: 'mx.sendgrid.net' },
      { type: 'TXT', host: 'em5101.acme-sg.example', value: 'v=spf1 include:sendgrid.net ~all' },
      { type: 'TXT', host: 'acme-sg.example', value: 'v=spf1 include:em5101.acme-sg.example -all' },
      { type: 'TXT', host: 'm1._domainkey.acme-sg.example', value: 'k=rsa; t=s; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDAcmeSg' },
    ]);
    expect(items[1]?.records.map((r) => `${r.type} ${r.host}`)).toEqual([
      'CNAME em5102.news-sg.example',
      'CNAME s1._domainkey.news-sg.example',
      'CNAME s2._domainkey.news-sg.example',
    ]);
  });

  test('webhooks: flags set true become events; two share a URL; account_status_change is asked for', async () => {
    const { items } = await readAll((p) => source().listWebhooks(p));
    expect(items).toEqual([
      {
        source_id: '77d4a5da-7015-11ed-a1eb-0242ac120002',
        url: SHARED_WEBHOOK_URL,
        events: ['delivered', 'bounce', 'open', 'click', 'spam_report', 'unsubscribe'],
        enabled: true,
      },
      {
        source_id: '88e5b6eb-8126-22fe-b2fc-1353bd231113',
        url: SHARED_WEBHOOK_URL,
        events: ['processed', 'dropped', 'deferred', 'bounce'],
        enabled: true,
      },
      {
        source_id: '99f6c7fc-9237-33af-c30d-2464ce342224',
        url: 'https://ops.acme.example/sendgrid-status',
        events: ['group_unsubscribe', 'group_resubscribe', 'account_status_change'],
        enabled: false,
      },
    ]);
    expect(items.filter((w) => w.url === facts.webhooks.shared_url)).toHaveLength(facts.webhooks.sharing_url);
  });

  test('without the multiple-webhooks API (404) the legacy settings are read', async () => {
    const k = uniqueKey('SG.legacy');
    await seed(emulator, { provider: 'sendgrid', api_key: k, data: { webhooks: data.webhooks, webhook_api: 'legacy' } });
    const { items } = await readAll((p) => source(k).listWebhooks(p));
    expect(items).toEqual([
      {
        source_id: 'legacy',
        url: SHARED_WEBHOOK_URL,
        events: ['delivered', 'bounce', 'open', 'click', 'spam_report', 'unsubscribe'],
        enabled: true,
      },
    ]);
    const log = await providerRequestLog(emulator.url, 'sendgrid', k);
    expect(log.map((r) => [r.path.split('?')[0], r.status])).toEqual([
      ['/v3/user/webhooks/event/settings/all', 404],
      ['/v3/user/webhooks/event/settings', 200],
    ]);
  });
});

describe('failures', () => {
  const messages: string[] = [];
  afterAll(() => {
    for (const m of messages) expect(m).not.toContain('SG.');
  });

  test('an unknown key is auth, on checkAccess and on any read', async () => {
    const bad = 'SG.unknown-key-0123456789';
    const check = await providerErrorOf(() => source(bad).checkAccess());
    expect(check.failure.kind).toBe('auth');
    expect(check.message).toContain('401');
    const read = await providerErrorOf(() => source(bad).listSuppressions('bounces', null));
    expect(read.failure.kind).toBe('auth');
    messages.push(check.message, read.message);
    expect(check.message).not.toContain(bad);
  });

  test('a 429 is rate_limited with the wait from X-RateLimit-Reset; the next request succeeds', async () => {
    const k = uniqueKey('SG.rate');
    await seed(emulator, {
      provider: 'sendgrid',
      api_key: k,
      data: small,
      faults: { rate_limit_after_requests: 1, retry_after_seconds: 120 },
    });
    await source(k).checkAccess();
    const err = await providerErrorOf(() => source(k).listSuppressions('bounces', null));
    expect(err.failure.kind).toBe('rate_limited');
    const retry = err.failure.kind === 'rate_limited' ? err.failure.retryAfterSeconds : 0;
    expect(retry).toBeGreaterThanOrEqual(119);
    expect(retry).toBeLessThanOrEqual(120);
    expect((await source(k).listSuppressions('bounces', null)).items).toHaveLength(1);
    messages.push(err.message);
    expect(err.message).not.toContain(k);
  });

  test('an outage (503) and a closed port are unavailable', async () => {
    const k = uniqueKey('SG.down');
    await seed(emulator, { provider: 'sendgrid', api_key: k, data: small, faults: { unavailable: true } });
    const down = await providerErrorOf(() => source(k).listSuppressions('bounces', null));
    expect(down.failure.kind).toBe('unavailable');
    const closed = await closedPortUrl();
    const refused = await providerErrorOf(() => new SendgridSource(creds(k), allUrls(closed)).checkAccess());
    expect(refused.failure.kind).toBe('unavailable');
    messages.push(down.message, refused.message);
    expect(`${down.message}${refused.message}`).not.toContain(k);
  });

  test('a key without a scope gets not_permitted for that list only; a 403 on checkAccess is auth', async () => {
    const k = uniqueKey('SG.scoped');
    await seed(emulator, {
      provider: 'sendgrid',
      api_key: k,
      data: { ...small, blocks: [] },
      faults: { forbidden_paths: ['/v3/suppression/blocks'] },
    });
    const err = await providerErrorOf(() => source(k).listSuppressions('blocks', null));
    expect(err.failure.kind).toBe('not_permitted');
    expect((await source(k).listSuppressions('bounces', null)).items).toHaveLength(1);
    const k2 = uniqueKey('SG.noscopes');
    await seed(emulator, { provider: 'sendgrid', api_key: k2, data: small, faults: { forbidden_paths: ['/v3/scopes'] } });
    expect((await providerErrorOf(() => source(k2).checkAccess())).failure.kind).toBe('auth');
    messages.push(err.message);
  });

  test('region eu reads the EU host; the same key is unknown on the global host', async () => {
    const k = uniqueKey('SG.eu');
    await seed(emulator, { provider: 'sendgrid', api_key: k, region: 'eu', data: small });
    expect((await source(k, 'eu').listSuppressions('bounces', null)).items).toHaveLength(1);
    const us = await providerErrorOf(() => source(k, 'us').checkAccess());
    expect(us.failure.kind).toBe('auth');
    const log = await providerRequestLog(emulator.url, 'sendgrid', k);
    expect(log.map((r) => r.region)).toEqual(['eu']);
    expect(JSON.stringify(log)).not.toContain(k);
  });
});
