/**
 * POST /migrations and the report endpoints around an import (docs/imports.md): validation, scopes,
 * provider errors, continuations (cursors: stale, mismatched, another account's, claimed twice), limits,
 * reports and secrets. On the shared stack, with the fake SendGrid seeded under keys of this test with
 * small cuts of test/fixtures/providers/sendgrid.ts (the big generated bounce list sliced down; no
 * domains, since domain names are claimed across accounts and other tests import the fixture's).
 *
 * The small seed (smallData(10)) reads, in the lists' order: bounces 10 (9 bounce + over-quota@ skipped
 * as temporary_failure), spam_reports 2, invalid_emails 1, blocks 2 (skipped), unsubscribes 4 (2 already
 * suppressed), group Newsletters 3 and Product updates 2 (1 already opted out): found 24, imported 18.
 */
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { newImportHead } from '#shared/domain/imports/import';
import { RATE_LIMITS, secondsUntilReset } from '#shared/domain/rate-limits';
import { DRY_RUN_TTL_SECONDS } from '#shared/adapters/store/imports';
import { sendgridFixture as fixture } from '../fixtures/providers/sendgrid';
import { comparableReport, requestPaths, sorted } from './harness/import-reports';
import { filesUnder, importToEnd, providerKey, publishFixtureDns, requestLog, seedProvider, setFaults } from './harness/imports';
import { api, newAccount, stack, type ApiResponse, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';
import { documentClient } from './harness/usage';

const WEBHOOK_HOSTS = ['hooks.acme.example', 'ops.acme.example'];
const ALL_WRITE_SCOPES = ['domains:write', 'webhooks:write', 'templates:write', 'suppressions:write'];

/** The SendGrid fixture with its first `bounces` bounces (the three hand-made ones first) and no domains. */
function smallData(bounces = 10) {
  return { ...fixture.data, bounces: fixture.data.bounces!.slice(0, bounces), domains: [] };
}

/** A fresh fake SendGrid account holding `data`, under a distinctive key (answered). */
async function seeded(data: unknown = smallData()): Promise<string> {
  const key = providerKey('SG.');
  await seedProvider({ provider: 'sendgrid', api_key: key, data });
  return key;
}

const post = (key: string, body: Record<string, unknown>) => api('POST', '/migrations', { key, body });
const fieldsOf = (response: ApiResponse): string[] => (response.body?.error?.details?.fields ?? []).map((f: { field: string }) => f.field);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(typeof response.body.error.message).toBe('string');
}

/** Full-access key of `account` -> a new key with `scopes` (and tenant). */
async function keyWith(account: TestAccount, scopes: string[], tenant?: string | undefined): Promise<string> {
  const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'imports', scopes, ...(tenant ? { tenant } : {}) } });
  expect(created.status).toBe(201);
  return created.body.secret;
}

const emptyList = { migrations: [], has_more: false, next_cursor: null };

beforeAll(async () => {
  await publishFixtureDns([], WEBHOOK_HOSTS);
});

describe('validation (400 validation_error naming the field; the provider is never called)', () => {
  let account: TestAccount;
  let key: string;
  beforeAll(async () => {
    account = await newAccount();
    key = await seeded();
  });

  const base = () => ({ provider: 'sendgrid', api_key: key });
  it.each([
    ['a provider that is not one of the three', () => ({ ...base(), provider: 'sparkpost' }), 'provider'],
    ['no provider', () => ({ api_key: key }), 'provider'],
    ['no api_key', () => ({ provider: 'sendgrid' }), 'api_key'],
    ['account_api_key with sendgrid', () => ({ ...base(), account_api_key: 'pm-account' }), 'account_api_key'],
    ['region eu with postmark', () => ({ provider: 'postmark', api_key: key, region: 'eu' }), 'region'],
    ['a region that is not us or eu', () => ({ ...base(), region: 'ap' }), 'region'],
    ['an empty resources list', () => ({ ...base(), resources: [] }), 'resources'],
    ['an unknown resource', () => ({ ...base(), resources: ['suppressions', 'contacts'] }), 'resources.1'],
    ['dry_run that is not a boolean', () => ({ ...base(), dry_run: 'yes' }), 'dry_run'],
    ['a cursor that is not a next_cursor', () => ({ ...base(), cursor: 'not-a-cursor' }), 'cursor'],
    ['a cursor whose request count is not a number', () => ({ ...base(), cursor: 'mig_01JGZ3Y1Q2W3E4R5T6Y7U8I9O0.x' }), 'cursor'],
  ])('%s', async (_what, body, field) => {
    const response = await post(account.key, body());
    expectError(response, 400, 'validation_error');
    expect(fieldsOf(response)).toContain(field);
  });

  it('an unknown field: refused, named in the message of the body-level problem (as the other strict bodies, e.g. POST /automations)', async () => {
    const response = await post(account.key, { ...base(), colour: 'blue' });
    expectError(response, 400, 'validation_error');
    expect(response.body.error.details.fields).toEqual([{ field: '(body)', message: expect.stringContaining('"colour"') }]);
  });

  it('an empty or non-JSON body', async () => {
    for (const rawBody of ['', '{"provider": ']) {
      const response = await api('POST', '/migrations', { key: account.key, rawBody, headers: { 'content-type': 'application/json' } });
      expectError(response, 400, 'validation_error');
      expect(fieldsOf(response)).toEqual(['(body)']);
    }
  });

  it('none of them reached the provider or kept anything', async () => {
    expect(await requestLog('sendgrid', key)).toEqual([]);
    expect((await api('GET', '/migrations', { key: account.key })).body).toEqual(emptyList);
  });
});

describe('scopes', () => {
  it('a key with only suppressions:write imports suppressions, and gets 403 insufficient_scope for all resources', async () => {
    const account = await newAccount();
    const limited = await keyWith(account, ['suppressions:write']);
    const key = await seeded();
    for (const resources of [undefined, ['suppressions', 'webhooks']]) {
      const refused = await post(limited, { provider: 'sendgrid', api_key: key, ...(resources ? { resources } : {}) });
      expectError(refused, 403, 'insufficient_scope');
      expect(refused.body.error.details.required_scopes).toEqual([
        'full',
        'mail:admin',
        ...(resources ? ['webhooks:write', 'suppressions:write'] : ALL_WRITE_SCOPES),
      ]);
      expect(refused.body.error.details.key_scopes).toEqual(['suppressions:write']);
    }
    expect(await requestLog('sendgrid', key)).toEqual([]);

    const allowed = await post(limited, { provider: 'sendgrid', api_key: key, resources: ['suppressions'] });
    expect(allowed.status).toBe(200);
    expect(allowed.body.migration).toMatchObject({
      resources: ['suppressions'],
      status: 'completed',
      has_more: false,
      next_cursor: null,
      errors: [],
    });
    expect(allowed.body.migration.suppressions.totals).toMatchObject({ found: 24, imported: 18, already_suppressed: 3, skipped: 3 });
    expect(allowed.body.migration.templates.items).toEqual([]);
    // Only what suppressions need was read.
    const paths = requestPaths(await requestLog('sendgrid', key)).map((path) => path.split('?')[0]!);
    expect(paths.every((path) => /^GET \/v3\/(scopes|asm\/groups|suppression\/)/.test(path))).toBe(true);
    // Reading reports needs account:read or any of the write scopes: this key reads its import.
    expect((await api('GET', `/migrations/${allowed.body.migration.id}`, { key: limited })).status).toBe(200);
  });

  it('a key limited to a tenant gets 403 forbidden (imports are account-wide), for reports too', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await createTenant(owner);
    const limited = await keyWith(owner, ['full'], tenant.external_id);
    const key = await seeded();
    expectError(await post(limited, { provider: 'sendgrid', api_key: key }), 403, 'forbidden');
    expectError(await api('GET', '/migrations', { key: limited }), 403, 'forbidden');
    expect(await requestLog('sendgrid', key)).toEqual([]);
  });
});

describe('provider errors', () => {
  it('a key the provider rejects: 400 provider_auth_failed, nothing kept', async () => {
    const account = await newAccount();
    const unknown = providerKey('SG.');
    const response = await post(account.key, { provider: 'sendgrid', api_key: unknown });
    expectError(response, 400, 'validation_error');
    expect(response.body.error.details).toMatchObject({ reason: 'provider_auth_failed', provider: 'sendgrid' });
    expect(response.text).not.toContain(unknown);
    expect((await api('GET', '/migrations', { key: account.key })).body).toEqual(emptyList);
  });

  it('an unreachable provider: 502 upstream_error provider_unavailable, nothing kept', async () => {
    const account = await newAccount();
    const key = await seeded();
    await setFaults('sendgrid', key, { unavailable: true });
    const response = await post(account.key, { provider: 'sendgrid', api_key: key });
    expectError(response, 502, 'upstream_error');
    expect(response.body.error.details).toMatchObject({ reason: 'provider_unavailable', provider: 'sendgrid' });
    expect((await api('GET', '/migrations', { key: account.key })).body).toEqual(emptyList);
  });

  it('a rate limit on the very first call: 429 rate_limited with Retry-After from the provider, nothing kept', async () => {
    const account = await newAccount();
    const key = await seeded();
    await setFaults('sendgrid', key, { rate_limit_after_requests: 0, rate_limit_count: 1, retry_after_seconds: 7 });
    const response = await post(account.key, { provider: 'sendgrid', api_key: key });
    expectError(response, 429, 'rate_limited');
    expect(response.body.error.details).toMatchObject({ reason: 'provider_rate_limited', provider: 'sendgrid' });
    // SendGrid says when its window resets (X-RateLimit-Reset, whole unix seconds): 7 s from the second it answered.
    const retryAfter = Number(response.headers.get('retry-after'));
    expect([6, 7]).toContain(retryAfter);
    expect(response.body.error.details.retry_after).toBe(retryAfter);
    expect(requestPaths(await requestLog('sendgrid', key))).toEqual(['GET /v3/scopes']);
    expect((await api('GET', '/migrations', { key: account.key })).body).toEqual(emptyList);
  });

  it('a resource the key may not read: in errors, the others imported, status partial', async () => {
    const account = await newAccount();
    const key = await seeded();
    await setFaults('sendgrid', key, { forbidden_paths: ['/v3/templates'] });
    const response = await post(account.key, { provider: 'sendgrid', api_key: key });
    expect(response.status).toBe(200);
    const migration = response.body.migration;
    expect(migration).toMatchObject({ status: 'partial', has_more: false });
    // The provider's status and path are quoted (below the fake's /sendgrid mount locally).
    expect(migration.errors).toEqual([
      {
        resource: 'templates',
        message: expect.stringMatching(/^SendGrid does not let this API key read this \(403 on GET (\/sendgrid)?\/v3\/templates\)/),
      },
    ]);
    expect(migration.templates).toEqual({ totals: { found: 0, imported: 0, needs_attention: 0, skipped: 0, failed: 0 }, items: [] });
    expect(migration.webhooks.totals).toEqual({ found: 2, imported: 2, skipped: 0, failed: 0 });
    expect(migration.suppressions.totals).toMatchObject({ found: 24, imported: 18 });
    // Without the forbidden resource nothing failed: the error alone makes it partial.
    const { errors: _errors, ...rest } = migration;
    expect(JSON.stringify(rest)).not.toContain('"failed":1');
  });
});

describe('an import rate-limited twice, continued with its cursor', () => {
  // Two pages of bounces (500 + 103), so the second 429 can fall between them.
  const data = smallData(603);
  const body = () => ({ provider: 'sendgrid', api_key: key });
  let reference: any;
  let referenceLog: string[];
  let account: TestAccount;
  let key: string;
  let first: any;
  let second: any;
  let final: any;
  /** The index in the reference's request log of the request the first 429 answers. */
  let firstFault: number;

  beforeAll(async () => {
    // The same data imported without faults: one request on a quiet machine (the shared stack's budget is 20 s),
    // more on a loaded one (it once answered has_more there), driven to its end as a client does.
    const referenceKey = await seeded(data);
    const answers = await importToEnd(await newAccount(), { provider: 'sendgrid', api_key: referenceKey });
    reference = answers.at(-1)!.body.migration;
    expect(reference).toMatchObject({ status: 'partial', has_more: false });
    expect(reference.suppressions.totals).toMatchObject({ found: 617, imported: 611, already_suppressed: 3, skipped: 3 });
    referenceLog = requestPaths(await requestLog('sendgrid', referenceKey));
    account = await newAccount();
    key = await seeded(data);
  }, 60_000);

  it('a 429 mid-import: 200 with has_more, next_cursor and retry_after_seconds; what was done is kept', async () => {
    // The third template read: the first two are done and saved, the stretch stops there.
    firstFault = referenceLog.findIndex(
      (path, index) =>
        path.startsWith('GET /v3/templates/') &&
        referenceLog.slice(0, index).filter((p) => p.startsWith('GET /v3/templates/')).length === 2,
    );
    expect(firstFault).toBeGreaterThan(0);
    await setFaults('sendgrid', key, { rate_limit_after_requests: firstFault, rate_limit_count: 1, retry_after_seconds: 1 });
    const answer = await post(account.key, body());
    expect(answer.status).toBe(200);
    first = answer.body.migration;
    expect(first).toMatchObject({
      status: 'in_progress',
      has_more: true,
      next_cursor: `${first.id}.1`,
      requests: 1,
      retry_after_seconds: 1,
    });
    expect(first.templates.items.map((item: any) => item.source_id)).toEqual(
      reference.templates.items.slice(0, 2).map((item: any) => item.source_id),
    );
    expect(first.webhooks.totals.imported).toBe(2);
    expect(first.suppressions.totals.found).toBe(0);
    // The import is kept and listed with its cursor.
    const listed = (await api('GET', '/migrations', { key: account.key })).body.migrations;
    expect(listed.map((item: any) => [item.id, item.status, item.next_cursor])).toEqual([[first.id, 'in_progress', first.next_cursor]]);
  });

  it('the continuation resumes at the third template; a second 429 between two pages of bounces', async () => {
    // The continuation reads the template list again (nothing is cached across requests), then goes on
    // where the first stopped: the second 429 falls on the second page of bounces.
    const secondPage = referenceLog.indexOf('GET /v3/suppression/bounces?limit=500&offset=500');
    expect(secondPage).toBeGreaterThan(firstFault);
    await setFaults('sendgrid', key, {
      rate_limit_after_requests: 1 + secondPage - firstFault,
      rate_limit_count: 1,
      retry_after_seconds: 1,
    });
    await sleep(first.retry_after_seconds * 1000);
    const answer = await post(account.key, { ...body(), cursor: first.next_cursor });
    expect(answer.status).toBe(200);
    second = answer.body.migration;
    expect(second).toMatchObject({
      id: first.id,
      status: 'in_progress',
      has_more: true,
      next_cursor: `${first.id}.2`,
      requests: 2,
      retry_after_seconds: 1,
    });
    expect(comparableReport({ ...second, status: null }).templates).toEqual(comparableReport(reference).templates);
    // The first page of bounces: 499 hard bounces and over-quota@ (4.2.2) skipped.
    expect(second.suppressions.totals).toMatchObject({ found: 500, imported: 499, skipped: 1 });
  });

  it('a stale cursor answers the report as it stands and the current cursor, without working', async () => {
    const before = (await requestLog('sendgrid', key)).length;
    const answer = await post(account.key, { ...body(), cursor: first.next_cursor });
    expect(answer.status).toBe(200);
    const stale = answer.body.migration;
    expect(stale).toMatchObject({ id: first.id, status: 'in_progress', has_more: true, next_cursor: second.next_cursor, requests: 2 });
    expect(comparableReport(stale)).toEqual(comparableReport(second));
    expect((await requestLog('sendgrid', key)).length).toBe(before);
  });

  it('a continuation must repeat the first body: another provider, resources, region or dry_run is a 400 (the cursor stays good)', async () => {
    const cursor = second.next_cursor;
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: 'mailgun' }, 'provider'],
      [{ resources: ['suppressions'] }, 'resources'],
      [{ region: 'eu' }, 'region'],
      [{ dry_run: true }, 'dry_run'],
    ];
    const before = (await requestLog('sendgrid', key)).length;
    for (const [change, field] of cases) {
      const response = await post(account.key, { ...body(), ...change, cursor });
      expectError(response, 400, 'validation_error');
      expect(fieldsOf(response)).toEqual([field]);
    }
    expect((await requestLog('sendgrid', key)).length).toBe(before);
    expect((await api('GET', `/migrations/${first.id}`, { key: account.key })).body.migration).toMatchObject({
      requests: 2,
      next_cursor: cursor,
    });
  });

  it("another account's cursor is a 404", async () => {
    const other = await newAccount();
    expectError(await post(other.key, { ...body(), cursor: second.next_cursor }), 404, 'not_found');
  });

  it('an unreachable provider during a continuation: 502, and the cursor stays good', async () => {
    await setFaults('sendgrid', key, { unavailable: true });
    const response = await post(account.key, { ...body(), cursor: second.next_cursor });
    expectError(response, 502, 'upstream_error');
    expect(response.body.error.details).toMatchObject({ reason: 'provider_unavailable' });
    await setFaults('sendgrid', key, {});
    expect((await api('GET', `/migrations/${first.id}`, { key: account.key })).body.migration).toMatchObject({
      requests: 2,
      has_more: true,
      next_cursor: second.next_cursor,
    });
  });

  it('two requests with the same cursor: one works it, the other gets 409 conflict with Retry-After', async () => {
    const [a, b] = await Promise.all([
      post(account.key, { ...body(), cursor: second.next_cursor }),
      post(account.key, { ...body(), cursor: second.next_cursor }),
    ]);
    const worked = [a, b].find((response) => response.status === 200)!;
    const refused = [a, b].find((response) => response.status !== 200)!;
    expect(worked).toBeDefined();
    expectError(refused, 409, 'conflict');
    expect(refused.headers.get('retry-after')).toBe('5');
    final = worked.body.migration;
    expect(final).toMatchObject({ id: first.id, has_more: false, next_cursor: null, requests: 3 });
    expect(final.retry_after_seconds).toBeUndefined();
  });

  it('ends with the same report as the import without faults; only the interrupted reads were repeated', async () => {
    expect(comparableReport(final)).toEqual(comparableReport(reference));
    const got = (await api('GET', `/migrations/${first.id}`, { key: account.key })).body.migration;
    expect(comparableReport(got)).toEqual(comparableReport(reference));
    const log = await requestLog('sendgrid', key);
    expect(log.filter((entry) => entry.status === 429)).toHaveLength(2);
    expect(log.filter((entry) => entry.status === 503)).toHaveLength(1);
    // Everything read once, as without faults, plus the template list read again by the continuation.
    expect(sorted(requestPaths(log, [429, 503]))).toEqual(
      sorted([...referenceLog, referenceLog.find((path) => path.startsWith('GET /v3/templates?'))!]),
    );
  });

  it('a cursor of the finished import answers its final report, without working', async () => {
    const before = (await requestLog('sendgrid', key)).length;
    for (const cursor of [first.next_cursor, second.next_cursor]) {
      const answer = await post(account.key, { ...body(), cursor });
      expect(answer.status).toBe(200);
      expect(answer.body.migration).toMatchObject({ id: first.id, has_more: false, next_cursor: null, requests: 3, status: final.status });
      expect(comparableReport(answer.body.migration)).toEqual(comparableReport(final));
    }
    expect((await requestLog('sendgrid', key)).length).toBe(before);
  });
});

describe('limits and reports', () => {
  let account: TestAccount;
  let key: string;
  const kept: string[] = [];
  const previews: string[] = [];
  let interrupted: any;

  beforeAll(async () => {
    account = await newAccount();
    key = await seeded();
  });

  it('the 11th new import within the hour is a 429 (previews count); continuations have their own limit', async () => {
    for (let i = 0; i < 10; i++) {
      const dryRun = i % 2 === 0;
      // The last one is stopped by the provider after its first call, so it has a cursor to continue.
      if (i === 9) await setFaults('sendgrid', key, { rate_limit_after_requests: 1, rate_limit_count: 1, retry_after_seconds: 1 });
      const response = await post(account.key, { provider: 'sendgrid', api_key: key, resources: ['webhooks'], dry_run: dryRun });
      expect(response.status).toBe(200);
      (dryRun ? previews : kept).push(response.body.migration.id);
      if (i === 9) interrupted = response.body.migration;
    }
    expect(interrupted).toMatchObject({ has_more: true, retry_after_seconds: 1 });
    const before = (await requestLog('sendgrid', key)).length;
    for (const dryRun of [false, true]) {
      const refused = await post(account.key, { provider: 'sendgrid', api_key: key, resources: ['webhooks'], dry_run: dryRun });
      expectError(refused, 429, 'rate_limited');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(refused.body.error.details).toMatchObject({ limit: 10, window_seconds: 3600, retry_after: retryAfter });
    }
    expect((await requestLog('sendgrid', key)).length).toBe(before);
    await sleep(1000);
    const continued = await post(account.key, {
      provider: 'sendgrid',
      api_key: key,
      resources: ['webhooks'],
      cursor: interrupted.next_cursor,
    });
    expect(continued.status).toBe(200);
    expect(continued.body.migration).toMatchObject({ id: interrupted.id, has_more: false, requests: 2 });
  });

  it('GET /migrations: kept imports newest first, paginated; previews are not listed', async () => {
    const one = (await api('GET', '/migrations?limit=1', { key: account.key })).body;
    expect(one.migrations.map((item: any) => item.id)).toEqual([kept.at(-1)]);
    expect(one).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect(one.migrations[0]).toMatchObject({
      object: 'migration',
      provider: 'sendgrid',
      dry_run: false,
      status: 'completed',
      requests: 2,
      next_cursor: null,
      totals: expect.any(Object),
    });
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: any = (
        await api('GET', `/migrations?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: account.key })
      ).body;
      seen.push(...page.migrations.map((item: any) => item.id));
      sizes.push(page.migrations.length);
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...kept].reverse());
    expect(sizes).toEqual([2, 2, 1]);
    for (const limit of ['101', '0', 'ten']) {
      const response = await api('GET', `/migrations?limit=${limit}`, { key: account.key });
      expectError(response, 400, 'validation_error');
      expect(fieldsOf(response)).toEqual(['limit']);
    }
  });

  it("GET /migrations/{id}: 404 for a preview and for another account's import; ?format=xml is a 400", async () => {
    const other = await newAccount();
    for (const path of [`/migrations/${previews[0]}`, `/migrations/${previews[0]}/report`])
      expectError(await api('GET', path, { key: account.key }), 404, 'not_found');
    for (const path of [`/migrations/${kept[0]}`, `/migrations/${kept[0]}/report`, `/migrations/${kept[0]}/report?format=json`]) {
      expectError(await api('GET', path, { key: other.key }), 404, 'not_found');
    }
    expect((await api('GET', `/migrations/${kept[0]}`, { key: account.key })).status).toBe(200);
    const xml = await api('GET', `/migrations/${kept[0]}/report?format=xml`, { key: account.key });
    expectError(xml, 400, 'validation_error');
    expect(fieldsOf(xml)).toEqual(['format']);
  });

  it('a key with only account:read reads reports but cannot import', async () => {
    const reader = await keyWith(account, ['account:read']);
    expect((await api('GET', '/migrations', { key: reader })).status).toBe(200);
    expect((await api('GET', `/migrations/${kept[0]}`, { key: reader })).status).toBe(200);
    expect((await api('GET', `/migrations/${kept[0]}/report?format=json`, { key: reader })).status).toBe(200);
    expect((await api('GET', `/migrations/${kept[0]}/report`, { key: reader })).status).toBe(200);
    const before = (await requestLog('sendgrid', key)).length;
    expectError(await post(reader, { provider: 'sendgrid', api_key: key, resources: ['webhooks'] }), 403, 'insufficient_scope');
    expectError(
      await post(reader, { provider: 'sendgrid', api_key: key, resources: ['webhooks'], cursor: `${kept[0]}.1` }),
      403,
      'insufficient_scope',
    );
    expect((await requestLog('sendgrid', key)).length).toBe(before);
    // A key with a write scope but without account:read reads reports too (any of the write scopes).
    const writer = await keyWith(account, ['templates:write']);
    expect((await api('GET', `/migrations/${kept[0]}`, { key: writer })).status).toBe(200);
    const sender = await keyWith(account, ['emails:send']);
    expectError(await api('GET', '/migrations', { key: sender }), 403, 'insufficient_scope');
  });
});

describe('continuations', () => {
  it('the 301st continuation within the hour is a 429; new imports are counted apart', async () => {
    const rule = RATE_LIMITS.importContinuations;
    // The counters are per epoch-aligned hour: start in a window with room for the whole test.
    const left = secondsUntilReset(rule, Date.now());
    if (left < 60) await sleep(left * 1000 + 500);
    const account = await newAccount();
    const key = await seeded();
    const body = { provider: 'sendgrid', api_key: key, resources: ['webhooks'] };
    const done = (await post(account.key, body)).body.migration;
    expect(done).toMatchObject({ has_more: false, requests: 1 });
    // A cursor of the finished import: each continuation answers the report without working (and counts).
    const cursor = `${done.id}.0`;
    for (let sent = 0; sent < rule.limit; sent += 10) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(account.key, { ...body, cursor })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    }
    const refused = await post(account.key, { ...body, cursor });
    expectError(refused, 429, 'rate_limited');
    expect(refused.body.error.details).toMatchObject({ limit: rule.limit, window_seconds: rule.windowSeconds });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The new imports' own counter has one used.
    expect((await post(account.key, body)).status).toBe(200);
  }, 120_000);

  it('a preview can be continued for an hour (its TTL), then its cursor is a 404', async () => {
    const account = await newAccount();
    const key = await seeded();
    const body = { provider: 'sendgrid', api_key: key, resources: ['webhooks'], dry_run: true };
    // Two previews stopped before any work, one started now and one started just over its TTL ago.
    const { imports } = stack().services;
    const previewAt = async (startedMs: number): Promise<string> => {
      const head = newImportHead(
        { account_id: account.id, provider: 'sendgrid', region: 'us', resources: ['webhooks'], dry_run: true },
        startedMs,
      );
      await imports.create(head, startedMs);
      return `${head.id}.0`;
    };
    const fresh = await previewAt(Date.now());
    const expired = await previewAt(Date.now() - (DRY_RUN_TTL_SECONDS + 60) * 1000);
    const continued = await post(account.key, { ...body, cursor: fresh });
    expect(continued.status).toBe(200);
    expect(continued.body.migration).toMatchObject({ dry_run: true, has_more: false, requests: 1 });
    expectError(await post(account.key, { ...body, cursor: expired }), 404, 'not_found');
  });
});

/** Every item of the stack's table, as JSON text (a parallel scan). */
async function tableItems(): Promise<string[]> {
  const client = documentClient();
  const table = stack().info.env.TABLE_NAME!;
  const segments = 4;
  const items: string[][] = await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      const texts: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await client.send(
          new ScanCommand({ TableName: table, Segment: segment, TotalSegments: segments, ExclusiveStartKey: start }),
        );
        for (const item of page.Items ?? []) texts.push(JSON.stringify(item));
        start = page.LastEvaluatedKey;
      } while (start);
      return texts;
    }),
  );
  client.destroy();
  return items.flat();
}

describe('secrets', () => {
  it('the provider key is never stored or returned: not in any answer, the data folder or the table', async () => {
    const account = await newAccount();
    const key = await seeded();
    const rejected = providerKey('SG.');
    const answers: ApiResponse[] = [];
    const importWith = async (apiKey: string) => answers.push(await post(account.key, { provider: 'sendgrid', api_key: apiKey }));
    // Every path an answer or an error message could take: a whole import, the provider unreachable,
    // rate-limiting, refusing a list (its error text is quoted in the report), and a rejected key.
    await importWith(key);
    await setFaults('sendgrid', key, { unavailable: true });
    await importWith(key);
    await setFaults('sendgrid', key, { rate_limit_after_requests: 0, rate_limit_count: 1, retry_after_seconds: 1 });
    await importWith(key);
    await setFaults('sendgrid', key, { forbidden_paths: ['/v3/suppression/blocks'] });
    await importWith(key);
    await importWith(rejected);
    expect(answers.map((answer) => answer.status)).toEqual([200, 502, 429, 200, 400]);
    expect(answers[3]!.body.migration.errors).toEqual([{ resource: 'suppressions', message: expect.stringContaining('blocks') }]);
    const ids = [answers[0]!.body.migration.id, answers[3]!.body.migration.id];
    for (const id of ids) {
      answers.push(await api('GET', `/migrations/${id}`, { key: account.key }));
      answers.push(await api('GET', `/migrations/${id}/report`, { key: account.key }));
    }
    answers.push(await api('GET', '/migrations', { key: account.key }));

    // The key, its random part alone, and base64 forms (HTTP Basic, as Mailgun's adapter sends keys).
    const needles = [key, rejected].flatMap((secret) => [
      secret,
      secret.slice(3),
      Buffer.from(secret).toString('base64'),
      Buffer.from(`api:${secret}`).toString('base64'),
    ]);
    for (const answer of answers) for (const needle of needles) expect(answer.text).not.toContain(needle);

    // The data folder of the shared stack (stack.json, the local key file, CA and TLS files, the webhook
    // inbox, the SMTP relay's files), every file read whole and searched byte for byte.
    const files = filesUnder(stack().info.data_dir);
    expect(files.map(([path]) => path)).toContain(join(stack().info.data_dir, 'stack.json'));
    const onDisk = files
      .filter(([, contents]) => needles.some((needle) => contents.indexOf(Buffer.from(needle)) !== -1))
      .map(([path]) => path);
    expect(onDisk).toEqual([]);

    // The shared stack runs DynamoDB Local in memory: nothing of the table is on disk, so its items are
    // read back (every item of every account) and searched instead.
    const items = await tableItems();
    expect(items.filter((item) => ids.some((id) => item.includes(id))).length).toBeGreaterThan(2);
    expect(items.filter((item) => needles.some((needle) => item.includes(needle)))).toEqual([]);
    // Logs: the shared stack is started with LOG_LEVEL=silent and its output is held by the global
    // setup's process, out of this worker's reach; imports-chain.test.ts starts a stack of its own with
    // logging on and searches its output for the keys it used.
  }, 120_000);
});
