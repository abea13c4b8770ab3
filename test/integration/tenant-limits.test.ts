/**
 * A tenant's daily limits, stats and automatic pause against the local cloud: daily_limit and the ramp
 * enforced in the accept transaction (concurrent sends at the edge: exactly the remaining places
 * succeed, 429 daily_ramp_limit, other tenants unaffected), the ramp brought forward across a UTC day,
 * GET /tenants/{tenant}/stats from the day counters, and the service pausing a tenant whose bounces
 * are too high (tenant.paused / tenant.resumed webhooks, resume by an operator only).
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tenantScope } from '#shared/domain/tenants/limits';
import { keys } from '#shared/adapters/store/keys';
import { api, newAccount, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { documentClient, fillShards, setUsage } from './harness/usage';
import { unique, createTenant } from './harness/tenants';
import { inboxRequests } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';
const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const tableName = () => stack().info.env.TABLE_NAME!;

const send = (account: TestAccount, tenant: string, extra: Record<string, unknown> = {}) =>
  api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't', tenant, ...extra },
  });

async function setDayStats(tenantId: string, day: string, counts: Record<string, number>) {
  await documentClient().send(
    new PutCommand({ TableName: tableName(), Item: { ...keys.tenantStats(tenantId, day), type: 'tenant_stats', ...counts } }),
  );
}

describe('tenant limits, stats and automatic pause', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
  });

  it('enforces daily_limit atomically: of concurrent sends at the edge exactly the remaining places succeed; other tenants are unaffected', async () => {
    const limited = await createTenant(account, { daily_limit: 5 });
    const other = await createTenant(account, { daily_limit: 5 });
    expect((await send(account, limited.external_id)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(account, limited.external_id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(6);
    expect(refused[0]!.body.error).toMatchObject({
      code: 'daily_ramp_limit',
      details: {
        tenant: limited.external_id,
        stream: 'transactional',
        daily_limit: 5,
        recipients: 1,
        ramp_stage: 1,
        resets_at: expect.stringMatching(/T00:00:00.000Z$/),
        limited_by: 'daily_limit',
      },
    });
    expect(typeof refused[0]!.body.error.details.used_today).toBe('number');
    // Nothing refused was stored or sent; the other tenant still has its places.
    expect((await send(account, other.external_id)).status).toBe(200);
    const stats = await api('GET', `/tenants/${limited.external_id}/stats`, { key: account.key });
    expect(stats.body.ramp.used_today.transactional).toBe(5);
  });

  it('sits inside the account limits: the tighter wins, concurrent sends at the account edge get exactly its places, and a refused send takes no tenant place', async () => {
    const own = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await createTenant(own);
    // The account's sandbox day cap (100) has 2 places left; the tenant's fresh ramp (3,000) has them all.
    await setUsage(own.id, 'SANDBOX', 'DAY', today(), 98);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(own, tenant.external_id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error).toMatchObject({ code: 'plan_limit', details: { scope: 'sandbox', period: 'day', limit: 100 } });
    const stats = await api('GET', `/tenants/${tenant.external_id}/stats?days=1`, { key: own.key });
    expect(stats.body.ramp.used_today).toEqual({ transactional: 2, product: 0 });
  });

  it('enforces the ramp per stream at its edge; the other stream keeps its own limit', async () => {
    const tenant = await createTenant(account);
    await fillShards(account.id, tenantScope(tenant.id, 'product'), 'DAY', today(), 1000, 998);
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(account, tenant.external_id, { category: 'product' })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toMatchObject({
      code: 'daily_ramp_limit',
      details: { stream: 'product', daily_limit: 1000, used_today: 1000, ramp_stage: 1, limited_by: 'ramp' },
    });
    // Newsletter counts as product; transactional has its own 3,000.
    expect((await send(account, tenant.external_id, { category: 'newsletter' })).status).toBe(429);
    expect((await send(account, tenant.external_id)).status).toBe(200);
    const stats = await api('GET', `/tenants/${tenant.id}/stats?days=1`, { key: account.key });
    expect(stats.body.ramp).toMatchObject({
      object: 'tenant_ramp',
      active: true,
      stage: 1,
      daily_limit: { transactional: 3000, product: 1000 },
      used_today: { transactional: 1, product: 1000 },
      completed: false,
    });
  });

  it('doubles the ramp on the first send of a UTC day after a qualifying day, once', async () => {
    const tenant = await createTenant(account);
    // As if the tenant had sent 600 product recipients yesterday with no bounces.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenant(account.id, tenant.external_id),
        UpdateExpression: 'SET ramp_day = :d',
        ExpressionAttributeValues: { ':d': yesterday() },
      }),
    );
    await fillShards(account.id, tenantScope(tenant.id, 'product'), 'DAY', yesterday(), 1000, 600);
    await setDayStats(tenant.id, yesterday(), { total: 600, sent: 600, delivered: 600 });
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(account, tenant.external_id, { category: 'product' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const stats = await api('GET', `/tenants/${tenant.external_id}/stats`, { key: account.key });
    expect(stats.body.ramp).toMatchObject({ stage: 2, daily_limit: { transactional: 6000, product: 2000 }, used_today: { product: 4 } });
    const stored = await stack().services.tenants.find(account.id, tenant.external_id);
    expect(stored!.ramp).toEqual({ stage: 2, day: today() });
  });

  it('serves GET /tenants/{tenant}/stats from the day counters, with every field of the spec', async () => {
    const tenant = await createTenant(account);
    const ids = [(await send(account, tenant.external_id)).body.id, (await send(account, tenant.external_id)).body.id];
    for (const id of ids) await waitForStatus(account, id, 'delivered');
    const stats = await waitFor(async () => {
      const response = await api('GET', `/tenants/${tenant.external_id}/stats?days=7`, { key: account.key });
      return response.body.stats?.delivered === 2 ? response.body : undefined;
    }, 'stats counted');
    expect(stats.tenant).toMatchObject({ id: tenant.id, object: 'tenant' });
    expect(stats.stats).toEqual({
      object: 'tenant_stats',
      days: 7,
      from: `${new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`,
      total: 2,
      queued: 2,
      scheduled: 0,
      sent: 2,
      delivered: 2,
      bounced: 0,
      complained: 0,
      failed: 0,
      suppressed: 0,
      opened: 0,
      clicked: 0,
      bounce_rate: 0,
      complaint_rate: 0,
      bounce_categories: {
        invalid_address: 0,
        mailbox_full: 0,
        mailbox_inactive: 0,
        domain_invalid: 0,
        blocked_reputation: 0,
        blocked_content: 0,
        rate_limited: 0,
        technical: 0,
        unclassified: 0,
      },
    });
    for (const days of ['0', '91', 'x', '1.5'])
      expect((await api('GET', `/tenants/${tenant.external_id}/stats?days=${days}`, { key: account.key })).status).toBe(400);
    expect((await api('GET', '/tenants/nobody/stats', { key: account.key })).status).toBe(404);
    // Isolation: another account does not see it; a key of this tenant reads its stats, a key of another tenant may not.
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    expect((await api('GET', `/tenants/${tenant.id}/stats`, { key: other.key })).status).toBe(404);
    const second = await createTenant(account);
    const own = (await api('POST', '/api-keys', { key: account.key, body: { name: 'own', scopes: ['full'], tenant: tenant.external_id } }))
      .body.secret;
    const foreign = (
      await api('POST', '/api-keys', { key: account.key, body: { name: 'foreign', scopes: ['full'], tenant: second.external_id } })
    ).body.secret;
    expect((await api('GET', `/tenants/${tenant.external_id}/stats`, { key: own })).body.stats.delivered).toBe(2);
    const refused = await api('GET', `/tenants/${tenant.external_id}/stats`, { key: foreign });
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 403, code: 'forbidden' });
  });

  it('pauses a tenant whose bounce rate crosses the threshold (tenant.paused), refuses its sends, and only an operator resumes it (tenant.resumed)', async () => {
    const bouncer = await newAccount({
      plan: 'scale',
      paymentMethod: true,
      tenants: true,
      email: `bounce+${Date.now()}@simulator.amazonses.com`,
    });
    const tenant = await createTenant(bouncer);
    const inbox = stack().info.webhook_inbox_url!;
    const path = unique('tenant-hook');
    expect(
      (await api('POST', '/webhooks', { key: bouncer.key, body: { url: `${inbox}${path}`, events: ['tenant.paused', 'tenant.resumed'] } }))
        .status,
    ).toBe(200);
    // 300 sent today with 15 bounces (5%: not over); one more bounce crosses it.
    await setDayStats(tenant.id, today(), { total: 300, sent: 300, delivered: 285, bounced: 15 });
    const id = (await send(bouncer, tenant.external_id)).body.id;
    await waitForStatus(bouncer, id, 'bounced');
    const paused = await waitFor(async () => {
      const current = (await api('GET', `/tenants/${tenant.id}`, { key: bouncer.key })).body.tenant;
      return current.status === 'paused' ? current : undefined;
    }, 'automatic pause');
    expect(paused).toMatchObject({
      pause_source: 'automated',
      paused_reason: expect.stringContaining('Bounce rate 5.32% over 301 emails'),
      paused_at: expect.any(String),
    });
    const refused = await send(bouncer, tenant.external_id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await api('PATCH', `/tenants/${tenant.id}`, { key: bouncer.key, body: { status: 'active' } })).status).toBe(403);

    await stack().services.tenants.update(
      { account_id: bouncer.id, external_id: tenant.external_id },
      { status: 'active', paused_reason: null, paused_at: null, pause_source: null },
      new Date().toISOString(),
    );
    const bodies = await waitFor(
      async () => {
        const found = (
          (await api('GET', `/_local/webhooks?path=/${path}`)).body.requests as {
            path: string;
            body: string;
            headers: Record<string, string>;
          }[]
        ).filter((r) => r.path === `/${path}`);
        return found.length >= 2 ? found.map((r) => JSON.parse(r.body)) : undefined;
      },
      'tenant.paused and tenant.resumed webhooks',
      60_000,
    );
    const types = bodies.map((b) => b.type).sort();
    expect(types).toEqual(['tenant.paused', 'tenant.resumed']);
    expect(bodies.find((b) => b.type === 'tenant.paused').data).toMatchObject({
      tenant_id: tenant.id,
      tenant: tenant.external_id,
      status: 'paused',
      pause_source: 'automated',
    });
    expect(bodies.find((b) => b.type === 'tenant.resumed').data).toMatchObject({
      tenant: tenant.external_id,
      status: 'active',
      pause_source: null,
    });
    // Resumed: the send passes the tenant check (before suppressions) and meets the bounced address on the tenant's list.
    const after = await send(bouncer, tenant.external_id);
    expect(after.status).toBe(422);
    expect(after.body.error.details.suppressed).toEqual([bouncer.email]);
  });

  it('pauses and resumes through PATCH publish the same events (pause_source manual)', async () => {
    const tenant = await createTenant(account);
    const inbox = stack().info.webhook_inbox_url!;
    const path = unique('manual-hook');
    expect(
      (await api('POST', '/webhooks', { key: account.key, body: { url: `${inbox}${path}`, events: ['tenant.paused', 'tenant.resumed'] } }))
        .status,
    ).toBe(200);
    expect(
      (await api('PATCH', `/tenants/${tenant.external_id}`, { key: account.key, body: { status: 'paused', reason: 'invoice' } })).status,
    ).toBe(200);
    const body = await waitFor(async () => {
      const found = (await inboxRequests(path))[0];
      return found ? JSON.parse(found.body) : undefined;
    }, 'tenant.paused webhook');
    expect(body).toMatchObject({
      type: 'tenant.paused',
      data: { tenant: tenant.external_id, paused_reason: 'invoice', pause_source: 'manual' },
    });
    expect((await api('PATCH', `/tenants/${tenant.external_id}`, { key: account.key, body: { status: 'active' } })).status).toBe(200);
    const resumed = await waitFor(async () => {
      const found = (await inboxRequests(path)).map((r) => JSON.parse(r.body));
      return found.find((b) => b.type === 'tenant.resumed');
    }, 'tenant.resumed webhook');
    expect(resumed.data).toMatchObject({ tenant: tenant.external_id, status: 'active', pause_source: null });
  });
});
