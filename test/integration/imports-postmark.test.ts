/**
 * Import from Postmark end to end (docs/imports.md): the local cloud's fake Postmark seeded with
 * test/fixtures/providers/postmark.ts under a server token and an account token of this test, POST
 * /migrations repeated with next_cursor until done, and each report checked against counts worked out
 * by hand from the fixture.
 *
 * Suppressions. The streams read are outbound, receipts (Transactional) and broadcast (Broadcasts);
 * inbound is never read and old-promos is archived (archived-reader@ never read). The lists, in the
 * order walked (every stream's HardBounce, then every stream's SpamComplaint, then every stream's
 * ManualSuppression):
 * - outbound HardBounce N + 1 (bounce-and-unsub@ + N generated; 2 dump pages of 1000) -> bounce
 * - receipts HardBounce 1 (receipts-bounce@) -> bounce; broadcast HardBounce 0
 * - outbound SpamComplaint 2 (complainer@, complainer-unsub@) -> complaint; receipts 0
 * - broadcast SpamComplaint 1 (broadcast-complainer@) -> complaint (a complaint is account-wide
 *   whichever stream it came from)
 * - outbound ManualSuppression 2: added-by-api@ (Origin Customer), added-by-staff@ (Admin) -> manual 2
 * - receipts ManualSuppression 3, all Origin Recipient on a Transactional stream -> unsubscribe:
 *   bounce-and-unsub@ and complainer-unsub@ are already there (bounce, complaint win: rule 3) ->
 *   already_suppressed 2; unsub-only@ -> unsubscribe 1
 * - broadcast ManualSuppression 3: reader-1@, reader-2@ (Recipient on a Broadcasts stream: scoped) ->
 *   product opt-outs 2; broadcast-manual@ (Customer) -> manual 1
 * found N + 13 = imported N + 11 (bounce N + 2, complaint 3, unsubscribe 1, manual 3,
 *   product_opt_out 2) + already_suppressed 2 + skipped 0.
 * Domains 2 on the pro plan (10 domains): both imported; acme-pm.example's published SPF gets our
 * include merged in, news-pm.example has nothing published (every record an add).
 * Webhooks: 3 from /webhooks + the server's legacy hook URLs (BounceHookUrl and OpenHookUrl are one
 * URL; InboundHookUrl another), one endpoint per URL, in the order first seen:
 * - hooks.acme.example/email-events: 91001 (delivery, bounce, spam_complaint, open) + 91002 (open,
 *   click, subscription_change) -> delivered, bounced, complained, opened, clicked, failed, unsubscribed
 * - hooks.acme.example/paused (91003, every trigger off): no events -> failed, nothing to create
 * - legacy.acme.example/postmark (bounce, open) -> bounced, opened, failed
 * - inbound.acme.example/postmark (inbound: no equivalent) -> failed, inbound unmapped
 * found 4 = imported 2 + failed 2 (so the import is partial).
 * Templates 5, the layout "basic" merged into welcome and not imported alone: found 4:
 * welcome (each/section/inverted section blocks) draft; account-notice (dotted, triple, whitespace)
 * and empty-subject ({{subject}}) imported and published; "Monthly newsletter" (no alias: slug of the
 * name, monthly-newsletter) with {{{ pm:unsubscribe }}} -> product draft.
 * Without account_api_key (a second account): domains are in `errors`, nothing else changes.
 */
import { postmarkFixture as fixture, INBOUND_HOOK_URL, LEGACY_HOOK_URL } from '../fixtures/providers/postmark';
import {
  fixtureData,
  GENERATED_BOUNCES,
  importToEnd,
  providerKey,
  publishFixtureDns,
  reportBothWays,
  seedProvider,
} from './harness/imports';
import { syntheticAddress } from '#localstack/emulators/providers';
import { api, newAccount, type TestAccount } from './harness/stack';

/** The fixture's generated bounces imported here (the first 1,100 of its 10,000): the counts below are N + what the hand-made entries add. */
const N = GENERATED_BOUNCES;

const D = 'pm-fixture.example';
const SHARED_URL = fixture.facts.webhooks.shared_url;
const PAUSED_URL = 'https://hooks.acme.example/paused';

const SUPPRESSIONS = {
  totals: {
    found: N + 13,
    imported: N + 11,
    already_suppressed: 2,
    skipped: 0,
    failed: 0,
    bounce: N + 2,
    complaint: 3,
    unsubscribe: 1,
    manual: 3,
    product_opt_out: 2,
  },
  skipped_reasons: {},
  estimated: false,
};
const TEMPLATES = [
  { source_id: '8002', alias: 'welcome', status: 'needs_attention', published: false, variables: ['name', 'company_name'] },
  {
    source_id: '8003',
    alias: 'account-notice',
    status: 'imported',
    published: true,
    variables: ['person_first_name', 'person_last_name', 'person_address_city', 'signature_html', 'raw_footer'],
  },
  { source_id: '8004', alias: 'empty-subject', status: 'imported', published: true, variables: ['subject', 'message'] },
  { source_id: '8005', alias: 'monthly-newsletter', status: 'needs_attention', published: false, variables: ['first_name', 'headline'] },
];
const SHARED_EVENTS = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.opened',
  'email.clicked',
  'email.failed',
  'contact.unsubscribed',
];
const WEBHOOKS = [
  [SHARED_URL, 'imported', SHARED_EVENTS, []],
  [PAUSED_URL, 'failed', [], []],
  [LEGACY_HOOK_URL, 'imported', ['email.bounced', 'email.opened', 'email.failed'], []],
  [INBOUND_HOOK_URL, 'failed', [], ['inbound']],
];
const OUR_SPF_INCLUDE = 'include:spf.mailservice.dev';

const webhookRows = (report: any) => report.webhooks.items.map((item: any) => [item.url, item.status, item.events, item.unmapped_events]);

describe('import from Postmark', () => {
  let account: TestAccount;
  let serverToken: string;
  let accountToken: string;
  let first: Awaited<ReturnType<typeof importToEnd>>;
  const body = () => ({ provider: 'postmark', api_key: serverToken, account_api_key: accountToken });

  beforeAll(async () => {
    serverToken = providerKey('pm-server-');
    accountToken = providerKey('pm-account-');
    await seedProvider({ provider: 'postmark', api_key: serverToken, account_api_key: accountToken, data: fixtureData('postmark') });
    await publishFixtureDns(fixture.publishedDns, ['hooks.acme.example', 'legacy.acme.example', 'inbound.acme.example']);
    account = await newAccount({ plan: 'pro' });
  });

  it('previews without writing: first pages only, estimated', async () => {
    const [answer] = await importToEnd(account, { ...body(), dry_run: true });
    const preview = answer!.body.migration;
    expect(preview).toMatchObject({
      provider: 'postmark',
      region: 'us',
      dry_run: true,
      status: 'partial',
      has_more: false,
      next_cursor: null,
    });
    // First pages: outbound hard bounces 1000 of N + 1 (bounce-and-unsub@ + 999 generated), every other
    // list whole. Looked up against the list as it stands (empty): the two addresses that are also on
    // receipts' unsubscribes count as unsubscribes too (that is part of "estimated").
    expect(preview.suppressions).toEqual({
      totals: {
        found: 1012,
        imported: 1012,
        already_suppressed: 0,
        skipped: 0,
        failed: 0,
        bounce: 1001,
        complaint: 3,
        unsubscribe: 3,
        manual: 3,
        product_opt_out: 2,
      },
      skipped_reasons: {},
      estimated: true,
    });
    expect(preview.domains.items.map((item: any) => [item.name, item.status, item.dns_plan])).toEqual([
      ['acme-pm.example', 'would_import', null],
      ['news-pm.example', 'would_import', null],
    ]);
    expect(preview.templates.totals).toEqual({ found: 4, imported: 2, needs_attention: 2, skipped: 0, failed: 0 });
    expect(preview.templates.items.map((item: any) => [item.alias, item.status, item.published])).toEqual(
      TEMPLATES.map((t) => [t.alias, 'would_import', t.published]),
    );
    expect(preview.webhooks.items.map((item: any) => [item.url, item.status, item.secret])).toEqual([
      [SHARED_URL, 'would_import', null],
      [PAUSED_URL, 'failed', null],
      [LEGACY_HOOK_URL, 'would_import', null],
      [INBOUND_HOOK_URL, 'failed', null],
    ]);
    // Nothing written, and previews are not kept.
    expect((await api('GET', '/domains', { key: account.key })).body.domains).toEqual([]);
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toEqual([]);
    expect((await api('GET', '/templates/welcome', { key: account.key })).status).toBe(404);
    expect((await api('GET', `/suppressions?email=complainer@${D}`, { key: account.key })).body.suppressions).toEqual([]);
    expect((await api('GET', `/suppressions?email=reader-1@${D}`, { key: account.key })).body.category_opt_outs).toEqual([]);
    expect((await api('GET', `/migrations/${preview.id}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', '/migrations', { key: account.key })).body.migrations).toEqual([]);
  }, 60_000);

  it('imports everything, as worked out by hand', async () => {
    first = await importToEnd(account, body());
    const report = first.at(-1)!.body.migration;
    expect(report).toMatchObject({
      provider: 'postmark',
      region: 'us',
      dry_run: false,
      status: 'partial',
      has_more: false,
      next_cursor: null,
      errors: [],
    });
    expect(report.requests).toBe(first.length);
    expect(report.suppressions).toEqual(SUPPRESSIONS);

    expect(report.domains.totals).toEqual({ found: 2, imported: 2, skipped: 0, failed: 0 });
    const [acme, news] = report.domains.items;
    expect(acme).toMatchObject({
      name: 'acme-pm.example',
      status: 'imported',
      domain_id: expect.stringMatching(/^dom_/),
      dashboard_url: expect.stringContaining('/domains/dom_'),
    });
    expect(news).toMatchObject({ name: 'news-pm.example', status: 'imported', domain_id: expect.stringMatching(/^dom_/) });
    // acme-pm.example: SPF merged into the published record (its includes kept, ours before ~all); the rest adds.
    expect(acme.dns_plan.checked).toBe(true);
    expect(acme.dns_plan.changes.find((change: any) => change.purpose === 'spf')).toMatchObject({
      action: 'update',
      host: 'acme-pm.example',
      current: fixture.publishedDns[0]!.values[0],
      value: `v=spf1 include:_spf.google.com include:spf.mtasv.net ${OUR_SPF_INCLUDE} ~all`,
    });
    expect(acme.dns_plan.changes.filter((change: any) => change.purpose !== 'spf').map((change: any) => change.action)).toEqual([
      'add',
      'add',
      'add',
      'add',
    ]);
    // Postmark's DKIM key and return path kept for now; its SPF include to be taken out later, never ours.
    expect(acme.dns_plan.keep_old_records).toContain('20241201000000pm._domainkey.acme-pm.example');
    expect(acme.dns_plan.keep_old_records).toContain('pm-bounces.acme-pm.example');
    expect(acme.dns_plan.keep_old_records).toContain('take include:spf.mtasv.net out');
    // news-pm.example: nothing published, so every record of ours is an add (SPF included).
    expect(news.dns_plan.checked).toBe(true);
    expect(news.dns_plan.changes.map((change: any) => change.action)).toEqual(['add', 'add', 'add', 'add', 'add']);
    expect(news.dns_plan.changes.find((change: any) => change.purpose === 'spf').value).toContain(OUR_SPF_INCLUDE);

    expect(report.webhooks.totals).toEqual({ found: 4, imported: 2, skipped: 0, failed: 2 });
    expect(webhookRows(report)).toEqual(WEBHOOKS);
    expect(report.webhooks.items.map((item: any) => item.enabled)).toEqual([false, false, false, false]);
    const [, paused, , inbound] = report.webhooks.items;
    expect(paused.message).toMatch(/no events/i);
    expect(inbound.message).toContain('inbound');
    expect(report.attention).toEqual(
      expect.arrayContaining([{ resource: 'webhooks', item: INBOUND_HOOK_URL, message: 'No equivalent for: inbound.' }]),
    );

    expect(report.templates.totals).toEqual({ found: 4, imported: 2, needs_attention: 2, skipped: 0, failed: 0 });
    expect(
      report.templates.items.map((item: any) => ({
        source_id: item.source_id,
        alias: item.alias,
        status: item.status,
        published: item.published,
        variables: item.variables,
      })),
    ).toEqual(TEMPLATES);
    expect(report.templates.items[0].notes[0]).toBe(
      'Merged layout "basic" into the template (its {{{@content}}} replaced by the template\'s body).',
    );
    expect(report.template_map).toEqual(TEMPLATES.map((t) => ({ source_id: t.source_id, alias: t.alias })));
    expect(report.code_changes.map((change: any) => change.stack)).toEqual(['node-sdk', 'node', 'python', 'curl', 'smtp']);
  }, 180_000);

  it('wrote what the report says, through the same records as the API', async () => {
    // The layout merged into the template that uses it: the layout's wrapper around welcome's body, html and text.
    const welcome = (await api('GET', '/templates/welcome', { key: account.key })).body.template;
    expect(welcome).toMatchObject({ subject: 'Welcome, {{name}}!', status: 'draft', category: 'transactional' });
    expect(welcome.html).toBe(
      '<html><body><div class="wrapper"><p>Hi {{name}}</p>{{#each products}}<li>{{title}}: {{price}}</li>{{/each}}' +
        '{{#company}}<p>From {{name}} at {{address}}</p>{{/company}}{{^has_orders}}<p>Place your first order!</p>{{/has_orders}}' +
        '</div><p>{{company_name}}</p></body></html>',
    );
    expect(welcome.text).toBe('Hi {{name}}\n{{#each products}}- {{title}}\n{{/each}}\n\n{{company_name}}');
    expect((await api('GET', '/templates/basic', { key: account.key })).status).toBe(404);
    const notice = (await api('GET', '/templates/account-notice', { key: account.key })).body.template;
    expect(notice).toMatchObject({ subject: 'Notice for {{person_first_name}}', status: 'published', text: '{{person_first_name}}' });
    expect(notice.html).toBe(
      '<p>{{person_first_name}} {{person_last_name}}</p><p>{{person_address_city}}</p>{{signature_html}}{{raw_footer}}',
    );
    expect((await api('GET', '/templates/empty-subject', { key: account.key })).body.template).toMatchObject({
      subject: '{{subject}}',
      status: 'published',
    });
    const newsletter = (await api('GET', '/templates/monthly-newsletter', { key: account.key })).body.template;
    expect(newsletter).toMatchObject({ name: 'Monthly newsletter', category: 'product', unsubscribe_enabled: true, status: 'draft' });
    expect(newsletter.html).toBe('<p>{{headline}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>');
    expect(newsletter.text).toBe('{{headline}}\nUnsubscribe: {{unsubscribe_url}}');

    const suppressionsOf = async (email: string) => (await api('GET', `/suppressions?email=${email}`, { key: account.key })).body;
    expect((await suppressionsOf(`bounce-and-unsub@${D}`)).suppressions).toMatchObject([{ reason: 'bounce', scope: 'account' }]);
    expect((await suppressionsOf(`complainer-unsub@${D}`)).suppressions).toMatchObject([{ reason: 'complaint', scope: 'account' }]);
    expect((await suppressionsOf(`broadcast-complainer@${D}`)).suppressions).toMatchObject([{ reason: 'complaint', scope: 'account' }]);
    expect((await suppressionsOf(`unsub-only@${D}`)).suppressions).toMatchObject([{ reason: 'unsubscribe', scope: 'account' }]);
    expect((await suppressionsOf(`added-by-staff@${D}`)).suppressions).toMatchObject([{ reason: 'manual', scope: 'account' }]);
    expect((await suppressionsOf(`broadcast-manual@${D}`)).suppressions).toMatchObject([{ reason: 'manual', scope: 'account' }]);
    // The last generated bounce, on the last page.
    expect((await suppressionsOf(syntheticAddress('hard', `bulk.${D}`, N - 1))).suppressions).toMatchObject([{ reason: 'bounce' }]);
    // Broadcast-stream unsubscribes: product opt-outs, not suppressions (transactional mail still goes).
    for (const email of fixture.facts.suppressions.scoped_opt_outs) {
      const optOuts = await suppressionsOf(email);
      expect(optOuts.suppressions).toEqual([]);
      expect(optOuts.category_opt_outs).toMatchObject([{ category: 'product' }]);
    }
    expect(await suppressionsOf(`archived-reader@${D}`)).toMatchObject({ suppressions: [], category_opt_outs: [] });

    const endpoints = (await api('GET', '/webhooks', { key: account.key })).body.webhooks;
    expect(endpoints.map((endpoint: any) => [endpoint.url, endpoint.enabled, endpoint.events]).sort()).toEqual(
      [
        [SHARED_URL, false, SHARED_EVENTS],
        [LEGACY_HOOK_URL, false, ['email.bounced', 'email.opened', 'email.failed']],
      ].sort(),
    );
    const domains = (await api('GET', '/domains', { key: account.key })).body.domains;
    expect(domains.map((domain: any) => domain.name).sort()).toEqual(['acme-pm.example', 'news-pm.example']);
  });

  it('shows each webhook secret once, in the answer of the request that created it', async () => {
    const created = first.flatMap((answer) => answer.body.migration.webhooks.items.filter((item: any) => item.secret !== null));
    expect(created.map((item: any) => item.url)).toEqual([SHARED_URL, LEGACY_HOOK_URL]);
    for (const item of created) expect(item.secret).toMatch(/^whsec_/);
    const again = (await api('GET', `/migrations/${first[0]!.body.migration.id}`, { key: account.key })).body.migration;
    expect(again.webhooks.items.map((item: any) => item.secret)).toEqual([null, null, null, null]);
    for (const item of created) expect(JSON.stringify(again)).not.toContain(item.secret);
  });

  it('GET merges every request into the last answer; the list shows it; CSV and JSON reports agree', async () => {
    const last = first.at(-1)!.body.migration;
    const got = (await api('GET', `/migrations/${last.id}`, { key: account.key })).body.migration;
    expect({ ...got, webhooks: undefined }).toEqual({ ...last, webhooks: undefined });
    expect(got.webhooks.items).toEqual(last.webhooks.items.map((item: any) => ({ ...item, secret: null })));
    const list = (await api('GET', '/migrations?limit=100', { key: account.key })).body;
    expect(list.migrations.map((item: any) => [item.id, item.provider, item.status, item.totals.suppressions.imported])).toEqual([
      [last.id, 'postmark', 'partial', N + 11],
    ]);

    const { json, contentType, csv, jsonAsCsv } = await reportBothWays(account, last.id);
    expect(contentType).toContain('text/csv');
    expect(csv).toEqual(jsonAsCsv);
    // 2 domains + 4 webhooks + 4 templates + the suppression rows below.
    expect(json.rows).toHaveLength(2 + 4 + 4 + 6);
    expect(json.rows.filter((row: any) => row.resource === 'webhooks').map((row: any) => [row.item, row.status])).toEqual(
      WEBHOOKS.map(([url, status]) => [url, status]),
    );
    expect(json.rows.find((row: any) => row.item === INBOUND_HOOK_URL)!.message).toContain('unmapped: inbound');
    expect(json.rows.filter((row: any) => row.resource === 'suppressions')).toEqual([
      { resource: 'suppressions', item: 'bounce', status: 'imported', id: '', count: N + 2, message: '' },
      { resource: 'suppressions', item: 'complaint', status: 'imported', id: '', count: 3, message: '' },
      { resource: 'suppressions', item: 'unsubscribe', status: 'imported', id: '', count: 1, message: '' },
      { resource: 'suppressions', item: 'manual', status: 'imported', id: '', count: 3, message: '' },
      { resource: 'suppressions', item: 'product_opt_out', status: 'imported', id: '', count: 2, message: '' },
      { resource: 'suppressions', item: 'already_suppressed', status: 'skipped', id: '', count: 2, message: 'already on the list' },
    ]);
  });

  it('a rerun imports nothing new (rule 7)', async () => {
    const rerun = (await importToEnd(account, body())).at(-1)!.body.migration;
    // Every entry read finds its address already there (product opt-outs included: keyed by account, email, product).
    expect(rerun.suppressions.totals).toEqual({
      ...SUPPRESSIONS.totals,
      imported: 0,
      already_suppressed: N + 13,
      bounce: 0,
      complaint: 0,
      unsubscribe: 0,
      manual: 0,
      product_opt_out: 0,
    });
    expect(rerun.domains.items.map((item: any) => [item.name, item.status])).toEqual([
      ['acme-pm.example', 'skipped'],
      ['news-pm.example', 'skipped'],
    ]);
    // The two without an equivalent fail again (nothing to create); the two created are there already.
    expect(rerun.webhooks.totals).toEqual({ found: 4, imported: 0, skipped: 2, failed: 2 });
    expect(rerun.webhooks.items.map((item: any) => item.secret)).toEqual([null, null, null, null]);
    expect(rerun.templates.totals).toEqual({ found: 4, imported: 0, needs_attention: 0, skipped: 4, failed: 0 });
    expect((await api('GET', '/webhooks', { key: account.key })).body.webhooks).toHaveLength(2);
  }, 180_000);

  it('without account_api_key imports everything but domains, and errors says why', async () => {
    const other = await newAccount({ plan: 'pro' });
    const report = (await importToEnd(other, { provider: 'postmark', api_key: serverToken })).at(-1)!.body.migration;
    expect(report).toMatchObject({ status: 'partial', has_more: false });
    expect(report.errors).toEqual([{ resource: 'domains', message: expect.stringContaining('account_api_key') }]);
    expect(report.domains).toEqual({ totals: { found: 0, imported: 0, skipped: 0, failed: 0 }, items: [] });
    expect(report.suppressions).toEqual(SUPPRESSIONS);
    expect(webhookRows(report)).toEqual(WEBHOOKS);
    expect(report.templates.items.map((item: any) => [item.alias, item.status])).toEqual(TEMPLATES.map((t) => [t.alias, t.status]));
    expect((await api('GET', '/domains', { key: other.key })).body.domains).toEqual([]);
    const { json } = await reportBothWays(other, report.id);
    expect(json.rows.filter((row: any) => row.status === 'error')).toEqual([
      { resource: 'domains', item: '', status: 'error', id: '', count: 0, message: report.errors[0].message },
    ]);
  }, 180_000);
});
