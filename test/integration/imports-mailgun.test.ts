/**
 * Import from Mailgun end to end (docs/imports.md): the local cloud's fake Mailgun seeded with
 * test/fixtures/providers/mailgun.ts under a key of this test, on the EU host only (region eu), POST
 * /migrations repeated with next_cursor until done, and each report checked against counts worked out
 * by hand from the fixture.
 *
 * The adapter walks domains by name: mg.acme-mg.example (MAIN), then news.acme-mg.example (NEWS).
 * Suppressions, lists in the order walked (every domain's bounces, then complaints, then unsubscribes;
 * whitelists are never read, so vip@ is nowhere):
 * - MAIN bounces N + 3 (2 pages of 1000 by address, then the empty page): both-bounce-unsub@ and the
 *   N generated (550) -> bounce N + 1; soft-421@ (code 421) -> skipped temporary_failure;
 *   blocked@ (550, but "blocked by the recipient spam policy") -> skipped blocked
 * - NEWS bounces 1 (news-bounce@, 550) -> bounce
 * - MAIN complaints 2 (complainer@, complainer-unsub@) -> complaint; NEWS complaints 0
 * - MAIN unsubscribes 4: both-bounce-unsub@ (tags ["*"]) and complainer-unsub@ (legacy tag "*") are
 *   unsubscribes from everything but already there (bounce, complaint win: rule 3) -> already_suppressed
 *   2; newsletter-only@ (["newsletter"]) and promo-and-news@ (["newsletter","promo"], one entry) are
 *   tag-only -> product opt-outs 2
 * - NEWS unsubscribes 2: all-news@ (tag "*") -> unsubscribe 1; news-reader@ (["weekly"]) -> product
 *   opt-out 1
 * found N + 12 = imported N + 8 (bounce N + 2, complaint 2, unsubscribe 1, product_opt_out 3)
 *   + already_suppressed 2 + skipped 2 (blocked 1, temporary_failure 1).
 * Domains 2 on the pro plan (10 domains), in the order Mailgun lists them (newest first): both imported;
 * MAIN's published SPF gets our include merged in.
 * Webhooks: MAIN's (4 URLs), NEWS's (1), the account's (2), merged by URL in the order first seen:
 * - hooks.acme.example/email-events: MAIN opened + clicked, NEWS complained, account delivered,
 *   permanent_fail, complained, unsubscribed -> delivered, bounced, complained, opened, clicked,
 *   failed, unsubscribed
 * - analytics.acme.example/opens: opened -> opened
 * - hooks.acme.example/deliveries: delivered, permanent_fail -> delivered, bounced, failed
 * - legacy.acme.example/mailgun-drops (legacy `url` shape, event drop: no equivalent) -> failed
 * - hooks.acme.example/accepted (account): accepted -> sent
 * found 5 = imported 4 + failed 1 (so the import is partial).
 * Templates 6, per domain by name, the active version of each: MAIN account-notice (dotted, triple,
 * whitespace; lower-case `subject` header) imported; go-digest (go engine: {{.Name}} -> {{Name}},
 * {{range}} kept) draft; newsletter (%unsubscribe_url% and %tag_unsubscribe_url%) product draft;
 * no-subject ({{subject}}) imported; order-receipt (v2 active: each/if/else) draft; NEWS weekly
 * imported. found 6 = imported 3 + needs_attention 3.
 */
import { mailgunFixture as fixture } from '../fixtures/providers/mailgun';
import {
  fixtureData,
  GENERATED_BOUNCES,
  importToEnd,
  providerKey,
  publishFixtureDns,
  reportBothWays,
  requestLog,
  seedProvider,
} from './harness/imports';
import { syntheticAddress } from '#localstack/emulators/providers';
import { api, newAccount, type TestAccount } from './harness/stack';

/** The fixture's generated bounces imported here (the first 1,100 of its 10,000): the counts below are N + what the hand-made entries add. */
const N = GENERATED_BOUNCES;

const D = 'mg-fixture.example';
const MAIN = 'mg.acme-mg.example';
const NEWS = 'news.acme-mg.example';
const SHARED_URL = fixture.facts.webhooks.shared_url;
const OUR_SPF_INCLUDE = 'include:spf.mailservice.dev';

const SUPPRESSIONS = {
  totals: {
    found: N + 12,
    imported: N + 8,
    already_suppressed: 2,
    skipped: 2,
    failed: 0,
    bounce: N + 2,
    complaint: 2,
    unsubscribe: 1,
    manual: 0,
    product_opt_out: 3,
  },
  skipped_reasons: { blocked: 1, temporary_failure: 1 },
  estimated: false,
};
const TEMPLATES = [
  {
    source_id: `${MAIN}/account-notice`,
    alias: 'account-notice',
    status: 'imported',
    published: true,
    variables: ['user_first_name', 'user_last_name', 'user_address_city', 'signature_html', 'footer_html'],
  },
  { source_id: `${MAIN}/go-digest`, alias: 'go-digest', status: 'needs_attention', published: false, variables: ['Name'] },
  {
    source_id: `${MAIN}/newsletter`,
    alias: 'newsletter',
    status: 'needs_attention',
    published: false,
    variables: ['first_name', 'headline'],
  },
  { source_id: `${MAIN}/no-subject`, alias: 'no-subject', status: 'imported', published: true, variables: ['subject', 'message'] },
  {
    source_id: `${MAIN}/order-receipt`,
    alias: 'order-receipt',
    status: 'needs_attention',
    published: false,
    variables: ['order_id', 'first_name'],
  },
  { source_id: `${NEWS}/weekly`, alias: 'weekly', status: 'imported', published: true, variables: ['title'] },
];
const WEBHOOKS = [
  [
    SHARED_URL,
    'imported',
    ['email.delivered', 'email.bounced', 'email.complained', 'email.opened', 'email.clicked', 'email.failed', 'contact.unsubscribed'],
    [],
  ],
  ['https://analytics.acme.example/opens', 'imported', ['email.opened'], []],
  ['https://hooks.acme.example/deliveries', 'imported', ['email.delivered', 'email.bounced', 'email.failed'], []],
  ['https://legacy.acme.example/mailgun-drops', 'failed', [], ['drop']],
  ['https://hooks.acme.example/accepted', 'imported', ['email.sent'], []],
] as const;

const webhookRows = (report: any) => report.webhooks.items.map((item: any) => [item.url, item.status, item.events, item.unmapped_events]);

describe('import from Mailgun (EU region)', () => {
  let account: TestAccount;
  let key: string;
  let first: Awaited<ReturnType<typeof importToEnd>>;
  const body = () => ({ provider: 'mailgun', api_key: key, region: 'eu' });

  beforeAll(async () => {
    key = providerKey('key-');
    await seedProvider({ provider: 'mailgun', api_key: key, region: 'eu', data: fixtureData('mailgun') });
    await publishFixtureDns(fixture.publishedDns, ['hooks.acme.example', 'analytics.acme.example', 'legacy.acme.example']);
    account = await newAccount({ plan: 'pro' });
  });

  it('previews without writing: first pages only, estimated', async () => {
    const [answer] = await importToEnd(account, { ...body(), dry_run: true });
    const preview = answer!.body.migration;
    expect(preview).toMatchObject({
      provider: 'mailgun',
      region: 'eu',
      dry_run: true,
      status: 'partial',
      has_more: false,
      next_cursor: null,
    });
    // First pages: MAIN bounces 1000 of N + 3 by address (blocked@ skipped, both-bounce-unsub@ and
    // bounce-000000..000997 bounce; soft-421@ sorts last, so no temporary failure yet), every other list
    // whole. Looked up against the empty list: both-bounce-unsub@ and complainer-unsub@ also count as
    // unsubscribes (part of "estimated").
    expect(preview.suppressions).toEqual({
      totals: {
        found: 1009,
        imported: 1008,
        already_suppressed: 0,
        skipped: 1,
        failed: 0,
        bounce: 1000,
        complaint: 2,
        unsubscribe: 3,
        manual: 0,
        product_opt_out: 3,
      },
      skipped_reasons: { blocked: 1 },
      estimated: true,
    });
    expect(preview.domains.items.map((item: any) => [item.name, item.status, item.dns_plan])).toEqual([
      [NEWS, 'would_import', null],
      [MAIN, 'would_import', null],
    ]);
    expect(preview.templates.totals).toEqual({ found: 6, imported: 3, needs_attention: 3, skipped: 0, failed: 0 });
    expect(preview.templates.items.map((item: any) => [item.alias, item.status, item.published])).toEqual(
      TEMPLATES.map((t) => [t.alias, 'would_import', t.published]),
    );
    expect(preview.webhooks.items.map((item: any) => [item.url, item.status, item.secret])).toEqual(
      WEBHOOKS.map(([url, status]) => [url, status === 'imported' ? 'would_import' : status, null]),
    );
    // Nothing written, and previews are not kept.
    expect((await api('GET', '/domains', { key: account.key })).body.domains).toEqual([]);
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toEqual([]);
    expect((await api('GET', '/templates/weekly', { key: account.key })).status).toBe(404);
    expect((await api('GET', `/suppressions?email=complainer@${D}`, { key: account.key })).body.suppressions).toEqual([]);
    expect((await api('GET', `/suppressions?email=news-reader@${D}`, { key: account.key })).body.category_opt_outs).toEqual([]);
    expect((await api('GET', `/migrations/${preview.id}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', '/migrations', { key: account.key })).body.migrations).toEqual([]);
  }, 60_000);

  it('the same key with region us is refused: the account lives on the EU host only', async () => {
    const response = await api('POST', '/migrations', { key: account.key, body: { provider: 'mailgun', api_key: key } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: 'validation_error',
      details: { reason: 'provider_auth_failed', provider: 'mailgun' },
    });
    expect(response.text).not.toContain(key);
    expect((await api('GET', '/migrations', { key: account.key })).body.migrations).toEqual([]);
  });

  it('imports everything, as worked out by hand', async () => {
    first = await importToEnd(account, body());
    const report = first.at(-1)!.body.migration;
    expect(report).toMatchObject({
      provider: 'mailgun',
      region: 'eu',
      dry_run: false,
      status: 'partial',
      has_more: false,
      next_cursor: null,
      errors: [],
    });
    expect(report.requests).toBe(first.length);
    expect(report.suppressions).toEqual(SUPPRESSIONS);

    expect(report.domains.totals).toEqual({ found: 2, imported: 2, skipped: 0, failed: 0 });
    const [news, main] = report.domains.items;
    expect(news).toMatchObject({ name: NEWS, status: 'imported', domain_id: expect.stringMatching(/^dom_/) });
    expect(main).toMatchObject({
      name: MAIN,
      status: 'imported',
      domain_id: expect.stringMatching(/^dom_/),
      dashboard_url: expect.stringContaining('/domains/dom_'),
    });
    expect(main.dns_plan.checked).toBe(true);
    expect(main.dns_plan.changes.find((change: any) => change.purpose === 'spf')).toMatchObject({
      action: 'update',
      host: MAIN,
      current: fixture.publishedDns[0]!.values[0],
      value: `v=spf1 include:mailgun.org include:_spf.google.com ${OUR_SPF_INCLUDE} ~all`,
    });
    expect(main.dns_plan.changes.filter((change: any) => change.purpose !== 'spf').map((change: any) => change.action)).toEqual([
      'add',
      'add',
      'add',
      'add',
    ]);
    expect(main.dns_plan.keep_old_records).toContain(`pic._domainkey.${MAIN}`);
    expect(main.dns_plan.keep_old_records).toContain(`email.${MAIN}`);
    expect(main.dns_plan.keep_old_records).toContain('take include:mailgun.org out');
    expect(news.dns_plan.changes.map((change: any) => change.action)).toEqual(['add', 'add', 'add', 'add', 'add']);

    expect(report.webhooks.totals).toEqual({ found: 5, imported: 4, skipped: 0, failed: 1 });
    expect(webhookRows(report)).toEqual(WEBHOOKS);
    expect(report.webhooks.items.every((item: any) => item.enabled === false)).toBe(true);
    expect(report.webhooks.items[3].message).toBe('None of its events (drop) has an equivalent here.');

    expect(report.templates.totals).toEqual({ found: 6, imported: 3, needs_attention: 3, skipped: 0, failed: 0 });
    expect(
      report.templates.items.map((item: any) => ({
        source_id: item.source_id,
        alias: item.alias,
        status: item.status,
        published: item.published,
        variables: item.variables,
      })),
    ).toEqual(TEMPLATES);
    expect(report.templates.items[1].notes).toEqual(
      expect.arrayContaining([expect.stringContaining('Conditional or loop blocks {{range}}')]),
    );
    expect(report.template_map).toEqual(TEMPLATES.map((t) => ({ source_id: t.source_id, alias: t.alias })));
    expect(report.code_changes.map((change: any) => change.stack)).toEqual(['node-sdk', 'node', 'python', 'curl', 'smtp']);

    // Every provider request went to the EU host.
    const log = await requestLog('mailgun', key);
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log.map((entry) => entry.region))).toEqual(new Set(['eu']));
  }, 180_000);

  it('wrote what the report says, through the same records as the API', async () => {
    const template = async (alias: string) => (await api('GET', `/templates/${alias}`, { key: account.key })).body.template;
    const notice = await template('account-notice');
    expect(notice).toMatchObject({ subject: 'Notice for {{user_first_name}}', status: 'published', text: null });
    expect(notice.html).toBe('<p>{{user_first_name}} {{user_last_name}}</p><p>{{user_address_city}}</p>{{signature_html}}{{footer_html}}');
    // The go-engine template: {{.Name}} flattened, the range block kept as written, a draft.
    const digest = await template('go-digest');
    expect(digest).toMatchObject({ subject: 'Digest', status: 'draft', category: 'transactional' });
    expect(digest.html).toBe('<p>Hi {{Name}}</p>{{range .Items}}<li>{{.}}</li>{{end}}');
    const newsletter = await template('newsletter');
    expect(newsletter).toMatchObject({ category: 'product', unsubscribe_enabled: true, status: 'draft' });
    expect(newsletter.html).toBe(
      '<p>{{headline}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a> | <a href="{{unsubscribe_url}}">Only this list</a></p>',
    );
    expect(await template('no-subject')).toMatchObject({ subject: '{{subject}}', status: 'published', html: '<p>{{message}}</p>' });
    // The active version (v2), not the older inactive one.
    const receipt = await template('order-receipt');
    expect(receipt).toMatchObject({ subject: 'Your order {{order_id}}', status: 'draft' });
    expect(receipt.html).toContain('{{#each items}}<li>{{this.name}}</li>{{/each}}');
    expect(receipt.html).not.toContain('Old receipt');
    // The second domain's template.
    expect(await template('weekly')).toMatchObject({ subject: 'This week: {{title}}', html: '<h1>{{title}}</h1>', status: 'published' });

    const suppressionsOf = async (email: string) => (await api('GET', `/suppressions?email=${email}`, { key: account.key })).body;
    expect((await suppressionsOf(`both-bounce-unsub@${D}`)).suppressions).toMatchObject([{ reason: 'bounce', scope: 'account' }]);
    expect((await suppressionsOf(`complainer-unsub@${D}`)).suppressions).toMatchObject([{ reason: 'complaint', scope: 'account' }]);
    expect((await suppressionsOf(`news-bounce@${D}`)).suppressions).toMatchObject([{ reason: 'bounce', scope: 'account' }]);
    expect((await suppressionsOf(`all-news@${D}`)).suppressions).toMatchObject([{ reason: 'unsubscribe', scope: 'account' }]);
    // The last generated bounce, on the last page.
    expect((await suppressionsOf(syntheticAddress('bounce', `bulk.${D}`, N - 1))).suppressions).toMatchObject([{ reason: 'bounce' }]);
    // Skipped (a temporary failure, a block) and never read (whitelists): nothing here.
    for (const email of [`soft-421@${D}`, `blocked@${D}`, `vip@${D}`])
      expect(await suppressionsOf(email)).toMatchObject({ suppressions: [], category_opt_outs: [] });
    // Tag-only unsubscribes: product opt-outs, not suppressions.
    for (const email of Object.keys(fixture.facts.suppressions.scoped_opt_outs)) {
      const optOuts = await suppressionsOf(email);
      expect(optOuts.suppressions).toEqual([]);
      expect(optOuts.category_opt_outs).toMatchObject([{ category: 'product' }]);
    }

    const endpoints = (await api('GET', '/webhooks', { key: account.key })).body.webhooks;
    expect(endpoints.map((endpoint: any) => [endpoint.url, endpoint.enabled, endpoint.events]).sort()).toEqual(
      WEBHOOKS.filter(([, status]) => status === 'imported')
        .map(([url, , events]) => [url, false, events])
        .sort(),
    );
    const domains = (await api('GET', '/domains', { key: account.key })).body.domains;
    expect(domains.map((domain: any) => domain.name).sort()).toEqual([MAIN, NEWS]);
  });

  it('shows each webhook secret once, in the answer of the request that created it', async () => {
    const created = first.flatMap((answer) => answer.body.migration.webhooks.items.filter((item: any) => item.secret !== null));
    expect(created.map((item: any) => item.url)).toEqual(WEBHOOKS.filter(([, status]) => status === 'imported').map(([url]) => url));
    for (const item of created) expect(item.secret).toMatch(/^whsec_/);
    expect(new Set(created.map((item: any) => item.secret)).size).toBe(4);
    const again = (await api('GET', `/migrations/${first[0]!.body.migration.id}`, { key: account.key })).body.migration;
    expect(again.webhooks.items.map((item: any) => item.secret)).toEqual([null, null, null, null, null]);
    for (const item of created) expect(JSON.stringify(again)).not.toContain(item.secret);
  });

  it('GET merges every request into the last answer; the list shows it; CSV and JSON reports agree', async () => {
    const last = first.at(-1)!.body.migration;
    const got = (await api('GET', `/migrations/${last.id}`, { key: account.key })).body.migration;
    expect({ ...got, webhooks: undefined }).toEqual({ ...last, webhooks: undefined });
    expect(got.webhooks.items).toEqual(last.webhooks.items.map((item: any) => ({ ...item, secret: null })));
    const list = (await api('GET', '/migrations?limit=100', { key: account.key })).body;
    expect(list.migrations.map((item: any) => [item.id, item.provider, item.status, item.totals.suppressions.imported])).toEqual([
      [last.id, 'mailgun', 'partial', N + 8],
    ]);

    const { json, contentType, csv, jsonAsCsv } = await reportBothWays(account, last.id);
    expect(contentType).toContain('text/csv');
    expect(csv).toEqual(jsonAsCsv);
    // 2 domains + 5 webhooks + 6 templates + the suppression rows below.
    expect(json.rows).toHaveLength(2 + 5 + 6 + 7);
    expect(json.rows.find((row: any) => row.item === 'https://legacy.acme.example/mailgun-drops')).toMatchObject({
      status: 'failed',
      message: 'None of its events (drop) has an equivalent here.; unmapped: drop',
    });
    expect(json.rows.filter((row: any) => row.resource === 'suppressions')).toEqual([
      { resource: 'suppressions', item: 'bounce', status: 'imported', id: '', count: N + 2, message: '' },
      { resource: 'suppressions', item: 'complaint', status: 'imported', id: '', count: 2, message: '' },
      { resource: 'suppressions', item: 'unsubscribe', status: 'imported', id: '', count: 1, message: '' },
      { resource: 'suppressions', item: 'product_opt_out', status: 'imported', id: '', count: 3, message: '' },
      { resource: 'suppressions', item: 'already_suppressed', status: 'skipped', id: '', count: 2, message: 'already on the list' },
      { resource: 'suppressions', item: 'blocked', status: 'skipped', id: '', count: 1, message: '' },
      { resource: 'suppressions', item: 'temporary_failure', status: 'skipped', id: '', count: 1, message: '' },
    ]);
  });

  it('a rerun imports nothing new (rule 7)', async () => {
    const rerun = (await importToEnd(account, body())).at(-1)!.body.migration;
    // Everything that is not skipped finds its address there (product opt-outs keyed by account, email, product).
    expect(rerun.suppressions).toEqual({
      ...SUPPRESSIONS,
      totals: {
        ...SUPPRESSIONS.totals,
        imported: 0,
        already_suppressed: N + 10,
        bounce: 0,
        complaint: 0,
        unsubscribe: 0,
        product_opt_out: 0,
      },
    });
    expect(rerun.domains.items.map((item: any) => [item.name, item.status])).toEqual([
      [NEWS, 'skipped'],
      [MAIN, 'skipped'],
    ]);
    expect(rerun.webhooks.totals).toEqual({ found: 5, imported: 0, skipped: 4, failed: 1 });
    expect(rerun.templates.totals).toEqual({ found: 6, imported: 0, needs_attention: 0, skipped: 6, failed: 0 });
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toHaveLength(4);
  }, 180_000);
});
