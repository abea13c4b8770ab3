/**
 * The audit log (docs/audit-log.md) against the local cloud: each audited change, by a key or a dashboard
 * user, appears in GET /audit-log exactly once with its actor, action and ids (a create's with the id it made,
 * so a key's create pairs with its revocation); reads never do; sign-ins and
 * failed sign-ins are recorded; the filters and pages work; no route changes or deletes a record; a key
 * without `full` is refused.
 */
import { publishAll } from './harness/dns';
import { uniqueDomain } from './harness/dns';
import { dashboardRequest, newDashboardUser, signIn, type SignedIn } from './harness/dashboard';
import { providerKey, publishFixtureDns, seedProvider } from './harness/imports';
import { api, newAccount, stack, uniqueEmail, type TestAccount } from './harness/stack';
import { unique } from './harness/tenants';
import { sendgridFixture as fixture } from '../fixtures/providers/sendgrid';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AuditLogRepository } from '#shared/adapters/store/audit-log';
import { createDynamoClient } from '#shared/adapters/aws/dynamo-client';
import { UNKNOWN_ACCOUNT_AUDIT } from '#shared/usecases/dashboard/sign-in';

type Record_ = {
  id: string;
  action: string;
  actor: Record<string, unknown>;
  resource_ids: Record<string, string>;
  created_at: string;
  status: number | null;
  source_ip: string | null;
};

let account: TestAccount;
let keyId: string;
let owner: SignedIn & { id: string; email: string };

/** Every record of the account (all pages), newest first. */
async function allRecords(query = ''): Promise<Record_[]> {
  const records: Record_[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: { audit_records: Record_[]; next_cursor: string | null } } = await api(
      'GET',
      `/audit-log?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`,
      { key: account.key },
    );
    expect(page.status).toBe(200);
    records.push(...page.body.audit_records);
    cursor = page.body.next_cursor;
  } while (cursor);
  return records;
}

const ok = <R extends { status: number; text: string }>(response: R, status?: number): R => {
  if (status === undefined ? response.status >= 300 : response.status !== status)
    throw new Error(`answered ${response.status}: ${response.text}`);
  return response;
};

const byKey = () => ({ type: 'api_key', id: keyId });
const expected: { action: string; ids?: Record<string, string>; actor: () => Record<string, unknown> }[] = [];

beforeAll(async () => {
  account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
  keyId = (await api('GET', '/api-keys', { key: account.key })).body.api_keys[0].id;
  const created = await newDashboardUser(account);
  owner = { ...(await signIn(created.email)), id: created.user.id, email: created.email };
  expected.push({
    action: 'signIn',
    ids: { user: owner.id },
    actor: () => ({ type: 'user', id: owner.id, email: owner.email, role: 'owner' }),
  });

  // Keys: create and revoke.
  const key = ok(await api('POST', '/api-keys', { key: account.key, body: { name: 'audited key', scopes: ['emails:send'] } }), 201);
  expected.push({ action: 'createApiKey', ids: { id: key.body.api_key.id }, actor: byKey });
  ok(await api('DELETE', `/api-keys/${key.body.api_key.id}`, { key: account.key }));
  expected.push({ action: 'revokeApiKey', ids: { id: key.body.api_key.id }, actor: byKey });

  // Domains: add, verify, delete.
  const domain = ok(await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } }), 201).body.domain;
  expected.push({ action: 'createDomain', ids: { id: domain.id }, actor: byKey });
  await publishAll(domain.records);
  ok(await api('POST', `/domains/${domain.id}`, { key: account.key, body: { action: 'verify' } }));
  expected.push({ action: 'domainAction', ids: { id: domain.id }, actor: byKey });
  ok(await api('DELETE', `/domains/${domain.id}`, { key: account.key }));
  expected.push({ action: 'deleteDomain', ids: { id: domain.id }, actor: byKey });

  // A webhook (its secret is shown on creation; the API has no rotation), suppressions, a tenant.
  const webhook = ok(
    await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${stack().info.webhook_inbox_url}audit`, events: ['email.delivered'] },
    }),
  ).body.webhook;
  expected.push({ action: 'createWebhook', ids: { id: webhook.id }, actor: byKey });
  const address = uniqueEmail('suppressed');
  ok(await api('POST', '/suppressions', { key: account.key, body: { email: address } }));
  expected.push({ action: 'addSuppressions', actor: byKey });
  ok(await api('DELETE', `/suppressions?email=${encodeURIComponent(address)}`, { key: account.key }));
  expected.push({ action: 'removeSuppression', actor: byKey });
  const tenant = ok(await api('POST', '/tenants', { key: account.key, body: { external_id: unique('audit') } }), 201).body.tenant;
  expected.push({ action: 'createTenant', ids: { tenant: tenant.id }, actor: byKey });

  // A template published, an automation activated.
  const alias = unique('receipt');
  ok(
    await api('POST', '/templates', { key: account.key, body: { alias, name: 'Receipt', subject: 'Receipt', html: '<p>Thanks</p>' } }),
    201,
  );
  expected.push({ action: 'createTemplate', ids: { alias }, actor: byKey });
  ok(await api('POST', `/templates/${alias}/publish`, { key: account.key }));
  expected.push({ action: 'publishTemplate', ids: { alias }, actor: byKey });
  const automation = ok(
    await api('POST', '/automations', {
      key: account.key,
      body: {
        name: 'Audited',
        trigger: { event: unique('user.created') },
        steps: [{ key: 'welcome', type: 'send_email', from: 'Acme <hello@example.com>', subject: 'Hi', html: '<p>Hi</p>' }],
      },
    }),
    201,
  ).body.automation;
  expected.push({ action: 'createAutomation', ids: { id: automation.id }, actor: byKey });
  ok(await api('POST', `/automations/${automation.id}`, { key: account.key, body: { action: 'activate' } }));
  expected.push({ action: 'changeAutomationStatus', ids: { id: automation.id }, actor: byKey });

  // An import, an erasure, an export.
  await publishFixtureDns([], ['hooks.acme.example', 'ops.acme.example']);
  const providerApiKey = providerKey('SG.');
  await seedProvider({
    provider: 'sendgrid',
    api_key: providerApiKey,
    data: { ...fixture.data, bounces: fixture.data.bounces!.slice(0, 3), domains: [] },
  });
  const migration = ok(await api('POST', '/migrations', { key: account.key, body: { provider: 'sendgrid', api_key: providerApiKey } })).body
    .migration;
  expected.push({ action: 'startImport', ids: { id: migration.id }, actor: byKey });
  const erasure = ok(await api('POST', '/privacy/erasures', { key: account.key, body: { email: uniqueEmail('erased') } })).body.erasure;
  expected.push({ action: 'createErasure', ids: { id: erasure.id }, actor: byKey });
  const exported = ok(await api('POST', '/exports', { key: account.key })).body.export;
  expected.push({ action: 'startExport', ids: { id: exported.id }, actor: byKey });

  // A member invited from the dashboard.
  const invitation = ok(
    await dashboardRequest('POST', '/dashboard/team/invitations', {
      cookie: owner.cookie,
      csrf: owner.csrf,
      body: { email: uniqueEmail('invited'), role: 'developer' },
    }),
  ).body.invitation;
  expected.push({ action: 'createInvitation', ids: { id: invitation.id }, actor: () => ({ type: 'user', id: owner.id, role: 'owner' }) });

  // A key made and revoked with the dashboard's forms.
  const form = (path: string, fields: string) =>
    dashboardRequest('POST', path, {
      cookie: owner.cookie,
      rawBody: `csrf_token=${owner.csrf}&${fields}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  ok(await form('/dashboard/api-keys', 'name=form+key&scopes=emails%3Asend'));
  const formKey = (await api('GET', '/api-keys', { key: account.key })).body.api_keys.find(
    (listed: { name: string }) => listed.name === 'form key',
  );
  expected.push({
    action: 'POST /dashboard/api-keys',
    ids: { id: formKey.id },
    actor: () => ({ type: 'user', id: owner.id, role: 'owner' }),
  });
  ok(await form(`/dashboard/api-keys/${formKey.id}/revoke`, ''), 303);
  expected.push({
    action: 'POST /dashboard/api-keys/:id/revoke',
    ids: { id: formKey.id },
    actor: () => ({ type: 'user', id: owner.id, role: 'owner' }),
  });

  // A failed sign-in of a known user (in the account), and reads (never recorded).
  expect(
    (await dashboardRequest('POST', '/dashboard/sign-in', { body: { email: owner.email, password: 'not the password at all' } })).status,
  ).toBe(401);
  expected.push({ action: 'signInFailed', ids: { user: owner.id }, actor: () => ({ type: 'user', id: owner.id }) });
  ok(await api('GET', '/domains', { key: account.key }));
  ok(await api('GET', `/webhooks/${webhook.id}`, { key: account.key }));
}, 120_000);

describe('what is recorded', () => {
  it('each audited change exactly once, with its actor, action and ids; never a read', async () => {
    const records = await allRecords();
    for (const want of expected) {
      const matching = records.filter((record) => record.action === want.action);
      expect({ action: want.action, count: matching.length }).toEqual({ action: want.action, count: 1 });
      expect(matching[0]!.actor).toMatchObject(want.actor());
      if (want.ids) expect(matching[0]!.resource_ids).toEqual(want.ids);
    }
    expect(records.map((record) => record.action).sort()).toEqual(expected.map((want) => want.action).sort());
    expect(records.some((record) => /^(list|get)/.test(record.action))).toBe(false);
    const text = JSON.stringify(records);
    expect(text).not.toContain('not the password at all');
    expect(text).not.toContain('svc_');
  });

  it("pairs a key's create and its revocation by the key's id: who made the key that was revoked", async () => {
    const records = await allRecords();
    for (const [create, revoke] of [
      ['createApiKey', 'revokeApiKey'],
      ['POST /dashboard/api-keys', 'POST /dashboard/api-keys/:id/revoke'],
    ]) {
      const revoked = records.find((record) => record.action === revoke)!;
      const made = records.filter((record) => record.action === create && record.resource_ids.id === revoked.resource_ids.id);
      expect({ create, count: made.length }).toEqual({ create, count: 1 });
      expect(made[0]!.resource_ids.id).toMatch(/^key_/);
      expect(made[0]!.created_at <= revoked.created_at).toBe(true);
    }
  });

  it('records newest first, with the source address', async () => {
    const records = await allRecords();
    expect(records.map((record) => record.id)).toEqual([...records.map((record) => record.id)].sort().reverse());
    expect(records.every((record) => typeof record.source_ip === 'string' && record.source_ip.length > 0)).toBe(true);
  });
});

describe("the admin CLI's changes", () => {
  it('are recorded with actor operator', async () => {
    const root = resolve(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(root, 'localstack', 'admin.cjs'), 'account', 'update', '--id', account.id, '--plan', 'scale'],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: process.env.TEST_STACK_DATA_DIR },
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ account_id: account.id, plan: 'scale' });
    const records = await allRecords('&actor=operator');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      action: 'cli:account update',
      actor: { type: 'operator' },
      resource_ids: { account: account.id },
      status: null,
    });
  }, 60_000);
});

describe('sign-ins of an email no user has', () => {
  it('are recorded outside any account, with the email hash only', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const email = uniqueEmail('nobody');
    expect((await dashboardRequest('POST', '/dashboard/sign-in', { body: { email, password: 'some guess of a password' } })).status).toBe(
      401,
    );
    const config = stack().services.config;
    const log = new AuditLogRepository({ client: createDynamoClient(config), name: config.tableName });
    const hash = createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32);
    const { items } = await log.list(
      UNKNOWN_ACCOUNT_AUDIT,
      { action: 'signInFailed', low: `aud_${'0'.repeat(26)}` },
      { limit: 100 },
      Date.now(),
    );
    const mine = items.filter((record) => record.actor.type === 'user' && record.actor.email_hash === hash && record.created_at >= since);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.actor).toEqual({ type: 'user', id: null, email: null, email_hash: hash, role: null });
    expect(JSON.stringify(mine[0])).not.toContain(email);
    expect(JSON.stringify(mine[0])).not.toContain('some guess');
  });
});

describe('reading it', () => {
  it('filters by actor, action and time, and pages', async () => {
    const byOwner = await allRecords(`&actor=${owner.id}`);
    expect(byOwner.map((record) => record.action).sort()).toEqual([
      'POST /dashboard/api-keys',
      'POST /dashboard/api-keys/:id/revoke',
      'createInvitation',
      'signIn',
      'signInFailed',
    ]);
    const publishes = await allRecords('&action=publishTemplate');
    expect(publishes).toHaveLength(1);
    const everything = await allRecords();
    const middle = everything[Math.floor(everything.length / 2)]!;
    const since = await allRecords(`&since=${encodeURIComponent(middle.created_at)}`);
    expect(since.every((record) => record.created_at >= middle.created_at)).toBe(true);
    expect(since.length).toBeGreaterThan(0);
    expect(since.length).toBeLessThan(everything.length);
    const until = await allRecords(`&until=${encodeURIComponent(middle.created_at)}`);
    expect(until.every((record) => record.created_at <= middle.created_at)).toBe(true);

    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { audit_records: Record_[]; next_cursor: string | null; has_more: boolean } } = await api(
        'GET',
        `/audit-log?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        { key: account.key },
      );
      expect(page.body.audit_records.length).toBeLessThanOrEqual(3);
      pages.push(...page.body.audit_records.map((record) => record.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(pages).toEqual(everything.map((record) => record.id));

    expect((await api('GET', '/audit-log?since=yesterday', { key: account.key })).status).toBe(400);
    expect((await api('GET', '/audit-log?cursor=bogus', { key: account.key })).status).toBe(400);
  });

  it('the dashboard page lists the records for an owner', async () => {
    const page = await dashboardRequest('GET', '/dashboard/audit-log?action=publishTemplate', { cookie: owner.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('publishTemplate');
    expect(page.text).not.toContain('createTemplate');
  });

  it('the dashboard page is refused to a developer (403)', async () => {
    const created = await newDashboardUser(account);
    const member = await signIn(created.email);
    // A second owner (as `admin user create` makes), made a developer through the team door.
    ok(
      await dashboardRequest('PATCH', `/dashboard/team/members/${created.user.id}`, {
        cookie: owner.cookie,
        csrf: owner.csrf,
        body: { role: 'developer' },
      }),
    );
    const refused = await dashboardRequest('GET', '/dashboard/audit-log', { cookie: member.cookie });
    expect(refused.status).toBe(403);
  });
});

describe('what no one can do', () => {
  it('no route changes or deletes a record', async () => {
    const [record] = await allRecords();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect([404, 405]).toContain((await api(method, '/audit-log', { key: account.key, body: {} })).status);
      expect([404, 405]).toContain((await api(method, `/audit-log/${record!.id}`, { key: account.key, body: {} })).status);
    }
    expect((await allRecords()).map((r) => r.id)).toContain(record!.id);
  });

  it('a key without full access gets 403', async () => {
    const sender = ok(await api('POST', '/api-keys', { key: account.key, body: { name: 'sender', scopes: ['emails:send'] } }), 201);
    const refused = await api('GET', '/audit-log', { key: sender.body.secret });
    expect(refused.status).toBe(403);
  });

  it('another account sees none of these records', async () => {
    const other = await newAccount();
    const page = await api('GET', '/audit-log', { key: other.key });
    expect(page.status).toBe(200);
    expect(page.body.audit_records).toEqual([]);
  });
});
