/**
 * Import from SendGrid end to end (docs/imports.md): the local cloud's fake SendGrid seeded with
 * test/fixtures/providers/sendgrid.ts (N of its generated bounces) under a key of this test, POST /migrations repeated with
 * next_cursor until done, and each report checked against counts worked out by hand from the fixture:
 *
 * Suppressions, lists in the order walked (bounces, spam_reports, invalid_emails, blocks, unsubscribes,
 * group Newsletters, group Product updates):
 * - bounces N + 3: N + 2 with a 5.x.x status -> bounce; over-quota@ (4.2.2) -> skipped temporary_failure
 * - spam_reports 2 -> complaint; invalid_emails 1 -> bounce; blocks 2 -> skipped blocked
 * - unsubscribes 4: both-bounce-unsub@ and complainer-unsub@ are already there (bounce, complaint win:
 *   rule 3) -> already_suppressed 2; unsub-only@, unsub-and-group@ -> unsubscribe 2
 * - groups: Newsletters 3 -> product opt-outs 3; Product updates: reader-1@ already opted out of
 *   product mail (already_suppressed 1), updates-only@ -> 1
 * found N + 17 = imported N + 11 (bounce N + 3, complaint 2, unsubscribe 2, product_opt_out 4)
 *   + already_suppressed 3 + skipped 3 (temporary_failure 1, blocked 2).
 * Domains 2 on the free plan (1 domain): acme-sg.example imported, news-sg.example failed (rule 8).
 * Webhooks 3 -> 2 endpoints (two share a URL: events merged), both disabled; the Ops one's
 * group_resubscribe and account_status_change have no equivalent.
 * Templates 6: receipt (loops) and newsletter (unsubscribe link) drafts, notice (dotted, triple,
 * whitespace), no-subject and legacy imported and published, the legacy one without versions failed.
 */
import { sendgridFixture as fixture } from '../fixtures/providers/sendgrid';
import {
  fixtureData,
  GENERATED_BOUNCES,
  importToEnd,
  providerKey,
  publishFixtureDns,
  reportBothWays,
  seedProvider,
} from './harness/imports';
import { api, newAccount, type TestAccount } from './harness/stack';

/** The fixture's generated bounces imported here (the first 1,100 of its 10,000): the counts below are N + what the hand-made entries add. */
const N = GENERATED_BOUNCES;

const SUPPRESSIONS = {
  totals: {
    found: N + 17,
    imported: N + 11,
    already_suppressed: 3,
    skipped: 3,
    failed: 0,
    bounce: N + 3,
    complaint: 2,
    unsubscribe: 2,
    manual: 0,
    product_opt_out: 4,
  },
  skipped_reasons: { temporary_failure: 1, blocked: 2 },
  estimated: false,
};
const TEMPLATES = [
  { alias: 'order-receipt', status: 'needs_attention', published: false },
  { alias: 'account-notice', status: 'imported', published: true },
  { alias: 'plain-notice-no-subject', status: 'imported', published: true },
  { alias: 'newsletter', status: 'needs_attention', published: false },
  { alias: 'legacy-password-reset', status: 'imported', published: true },
  { alias: 'legacy-draft-no-versions', status: 'failed', published: false },
];
const MERGED_EVENTS = [
  'email.sent',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.opened',
  'email.clicked',
  'email.failed',
  'email.suppressed',
  'contact.unsubscribed',
];

describe('import from SendGrid', () => {
  let account: TestAccount;
  let key: string;
  let first: Awaited<ReturnType<typeof importToEnd>>;

  beforeAll(async () => {
    key = providerKey('SG.');
    await seedProvider({ provider: 'sendgrid', api_key: key, data: fixtureData('sendgrid') });
    await publishFixtureDns(fixture.publishedDns, ['hooks.acme.example', 'ops.acme.example']);
    account = await newAccount({ plan: 'free' });
  });

  it('previews without writing: first pages only, estimated', async () => {
    const [answer] = await importToEnd(account, { provider: 'sendgrid', api_key: key, dry_run: true });
    const preview = answer!.body.migration;
    expect(preview).toMatchObject({ dry_run: true, status: 'partial', has_more: false, next_cursor: null });
    // First pages: bounces 500 of N + 3 (499 bounce + over-quota@ skipped), and every other list whole.
    // A preview looks each page up against the list as it stands (empty here): an address on two lists
    // counts on both (that is part of "estimated").
    expect(preview.suppressions).toEqual({
      totals: {
        found: 514,
        imported: 511,
        already_suppressed: 0,
        skipped: 3,
        failed: 0,
        bounce: 500,
        complaint: 2,
        unsubscribe: 4,
        manual: 0,
        product_opt_out: 5,
      },
      skipped_reasons: { temporary_failure: 1, blocked: 2 },
      estimated: true,
    });
    expect(preview.domains.items.map((item: any) => [item.name, item.status, item.dns_plan])).toEqual([
      ['acme-sg.example', 'would_import', null],
      ['news-sg.example', 'would_import', null],
    ]);
    expect(preview.templates.items.map((item: any) => item.status)).toEqual([
      'would_import',
      'would_import',
      'would_import',
      'would_import',
      'would_import',
      'failed',
    ]);
    expect(preview.webhooks.items.map((item: any) => [item.url, item.status, item.secret])).toEqual([
      [fixture.facts.webhooks.shared_url, 'would_import', null],
      ['https://ops.acme.example/sendgrid-status', 'would_import', null],
    ]);
    // Nothing written, and previews are not kept.
    expect((await api('GET', '/domains', { key: account.key })).body.domains).toEqual([]);
    expect((await api('GET', '/suppressions?email=complainer@sg-fixture.example', { key: account.key })).body.suppressions).toEqual([]);
    expect((await api('GET', `/migrations/${preview.id}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', '/migrations', { key: account.key })).body.migrations).toEqual([]);
  }, 60_000);

  it('imports everything, as worked out by hand', async () => {
    first = await importToEnd(account, { provider: 'sendgrid', api_key: key });
    const report = first.at(-1)!.body.migration;
    expect(report).toMatchObject({
      provider: 'sendgrid',
      dry_run: false,
      status: 'partial',
      has_more: false,
      next_cursor: null,
      errors: [],
    });
    expect(report.requests).toBe(first.length);
    expect(report.suppressions).toEqual(SUPPRESSIONS);

    expect(report.domains.totals).toEqual({ found: 2, imported: 1, skipped: 0, failed: 1 });
    const [acme, news] = report.domains.items;
    expect(news).toMatchObject({
      name: 'news-sg.example',
      status: 'failed',
      domain_id: null,
      message: expect.stringContaining('free plan includes 1 domain'),
    });
    expect(acme).toMatchObject({
      name: 'acme-sg.example',
      status: 'imported',
      domain_id: expect.stringMatching(/^dom_/),
      dashboard_url: expect.stringContaining('/domains/dom_'),
    });
    // SPF merged into the published record (never a second one); the rest are adds.
    expect(acme.dns_plan.checked).toBe(true);
    const spf = acme.dns_plan.changes.find((change: any) => change.purpose === 'spf');
    expect(spf).toMatchObject({
      action: 'update',
      host: 'acme-sg.example',
      current: fixture.publishedDns[0]!.values[0],
      value: 'v=spf1 include:_spf.google.com include:em5101.acme-sg.example include:spf.mailservice.dev -all',
    });
    expect(acme.dns_plan.changes.filter((change: any) => change.purpose !== 'spf').map((change: any) => change.action)).toEqual([
      'add',
      'add',
      'add',
      'add',
    ]);
    expect(acme.dns_plan.keep_old_records).toContain('em5101.acme-sg.example');

    expect(report.webhooks.totals).toEqual({ found: 2, imported: 2, skipped: 0, failed: 0 });
    expect(report.webhooks.items.map((item: any) => [item.url, item.events, item.unmapped_events, item.enabled])).toEqual([
      [fixture.facts.webhooks.shared_url, MERGED_EVENTS, [], false],
      ['https://ops.acme.example/sendgrid-status', ['contact.unsubscribed'], ['account_status_change', 'group_resubscribe'], false],
    ]);

    expect(report.templates.totals).toEqual({ found: 6, imported: 3, needs_attention: 2, skipped: 0, failed: 1 });
    expect(report.templates.items.map((item: any) => ({ alias: item.alias, status: item.status, published: item.published }))).toEqual(
      TEMPLATES,
    );
    expect(report.template_map).toEqual(
      report.templates.items
        .filter((item: any) => item.status !== 'failed')
        .map((item: any) => ({ source_id: item.source_id, alias: item.alias })),
    );
    expect(report.code_changes.map((change: any) => change.stack)).toEqual(['node-sdk', 'node', 'python', 'curl', 'smtp']);
    expect(report.agent_prompt).toContain('order-receipt');
  }, 180_000);

  it('wrote what the report says, through the same records as the API', async () => {
    const notice = (await api('GET', '/templates/account-notice', { key: account.key })).body.template;
    expect(notice.subject).toBe('{{company_name}}: notice for {{user_first_name}}');
    expect(notice.status).toBe('published');
    const receipt = (await api('GET', '/templates/order-receipt', { key: account.key })).body.template;
    expect(receipt.html).toContain('{{#each items}}');
    expect(receipt.status).toBe('draft');
    const newsletter = (await api('GET', '/templates/newsletter', { key: account.key })).body.template;
    expect(newsletter).toMatchObject({ category: 'product', unsubscribe_enabled: true, status: 'draft' });
    expect(newsletter.html).toContain('{{unsubscribe_url}}');
    const bounce = (await api('GET', '/suppressions?email=both-bounce-unsub@sg-fixture.example', { key: account.key })).body.suppressions;
    expect(bounce).toMatchObject([{ reason: 'bounce', scope: 'account' }]);
    const optOuts = (await api('GET', '/suppressions?email=reader-1@sg-fixture.example', { key: account.key })).body;
    expect(optOuts.suppressions).toEqual([]);
    expect(optOuts.category_opt_outs).toMatchObject([{ category: 'product' }]);
    const endpoints = (await api('GET', '/webhooks', { key: account.key })).body.webhooks;
    expect(endpoints.map((endpoint: any) => [endpoint.url, endpoint.enabled]).sort()).toEqual([
      [fixture.facts.webhooks.shared_url, false],
      ['https://ops.acme.example/sendgrid-status', false],
    ]);
  });

  it('shows each webhook secret once, in the answer of the request that created it', async () => {
    const created = first.flatMap((answer) => answer.body.migration.webhooks.items.filter((item: any) => item.secret !== null));
    expect(created).toHaveLength(2);
    for (const item of created) expect(item.secret).toMatch(/^whsec_/);
    const again = (await api('GET', `/migrations/${first[0]!.body.migration.id}`, { key: account.key })).body.migration;
    expect(again.webhooks.items.map((item: any) => item.secret)).toEqual([null, null]);
    expect(JSON.stringify(again)).not.toContain(created[0].secret);
  });

  it('GET merges every request into the last answer; the list shows it; CSV and JSON reports agree', async () => {
    const last = first.at(-1)!.body.migration;
    const got = (await api('GET', `/migrations/${last.id}`, { key: account.key })).body.migration;
    expect({ ...got, webhooks: undefined }).toEqual({ ...last, webhooks: undefined });
    const list = (await api('GET', '/migrations?limit=100', { key: account.key })).body;
    expect(list.migrations.map((item: any) => [item.id, item.status, item.totals.suppressions.imported])).toEqual([
      [last.id, 'partial', N + 11],
    ]);

    const { json, contentType, csv, jsonAsCsv } = await reportBothWays(account, last.id);
    expect(contentType).toContain('text/csv');
    expect(csv[0]).toEqual(['resource', 'item', 'status', 'id', 'count', 'message']);
    expect(csv).toEqual(jsonAsCsv);
    expect(json.rows.filter((row: any) => row.resource === 'suppressions')).toEqual([
      { resource: 'suppressions', item: 'bounce', status: 'imported', id: '', count: N + 3, message: '' },
      { resource: 'suppressions', item: 'complaint', status: 'imported', id: '', count: 2, message: '' },
      { resource: 'suppressions', item: 'unsubscribe', status: 'imported', id: '', count: 2, message: '' },
      { resource: 'suppressions', item: 'product_opt_out', status: 'imported', id: '', count: 4, message: '' },
      { resource: 'suppressions', item: 'already_suppressed', status: 'skipped', id: '', count: 3, message: 'already on the list' },
      { resource: 'suppressions', item: 'blocked', status: 'skipped', id: '', count: 2, message: '' },
      { resource: 'suppressions', item: 'temporary_failure', status: 'skipped', id: '', count: 1, message: '' },
    ]);
  });

  it('a rerun imports nothing new (rule 7)', async () => {
    const rerun = (await importToEnd(account, { provider: 'sendgrid', api_key: key })).at(-1)!.body.migration;
    expect(rerun.suppressions.totals).toEqual({
      ...SUPPRESSIONS.totals,
      imported: 0,
      already_suppressed: N + 14,
      bounce: 0,
      complaint: 0,
      unsubscribe: 0,
      product_opt_out: 0,
    });
    expect(rerun.domains.items.map((item: any) => item.status)).toEqual(['skipped', 'failed']);
    expect(rerun.webhooks.totals).toEqual({ found: 2, imported: 0, skipped: 2, failed: 0 });
    expect(rerun.templates.totals).toEqual({ found: 6, imported: 0, needs_attention: 0, skipped: 5, failed: 1 });
  }, 180_000);
});
