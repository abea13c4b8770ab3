/**
 * Plan and sandbox limits through POST /emails: counters reserved atomically with the email, so
 * concurrent sends at the edge of a limit never overshoot; suppressed recipients refuse a send.
 */
import { api, newAccount, stack, uniqueEmail } from './harness/stack';
import { publishAll, uniqueDomain } from './harness/dns';
import { shardCaps } from '#shared/domain/accounts/limits';
import { keys } from '#shared/adapters/store/keys';
import { month, setUsage, settledUsage, today, usage } from './harness/usage';

const SANDBOX = 'sandbox.mailservice.dev';

const sandboxSend = (key: string, to: string) =>
  api('POST', '/emails', { key, body: { from: `a@${SANDBOX}`, to, subject: 'limit', text: 't' } });

describe('plan limits', () => {
  it('counts each send against the day and month counters', async () => {
    const account = await newAccount();
    expect((await sandboxSend(account.key, account.email)).status).toBe(200);
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(1);
    expect(await usage(account.id, 'PLAN', 'MONTH', month())).toBe(1);
    expect(await usage(account.id, 'SANDBOX', 'DAY', today())).toBe(1);
  });

  it('never overshoots the free daily limit when 20 sends race its last 5 places', async () => {
    const account = await newAccount({ plan: 'free' });
    await setUsage(account.id, 'PLAN', 'DAY', today(), 95);
    const results = await Promise.all(Array.from({ length: 20 }, () => sandboxSend(account.key, account.email)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(15);
    expect(refused[0]!.body.error).toMatchObject({
      code: 'plan_limit',
      upgrade_url: expect.stringMatching(/^https?:\/\//),
      details: {
        limit: 100,
        period: 'day',
        scope: 'plan',
        plan: 'free',
        requested: 1,
        resets_at: expect.stringMatching(/T00:00:00.000Z$/),
      },
    });
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(100);
  });

  it('grants exactly the remaining places when multi-recipient sends race a sharded counter spread unevenly', async () => {
    // A verified domain and a payment method, so one send can reach several recipients.
    const account = await newAccount({ plan: 'free', paymentMethod: true });
    const name = uniqueDomain();
    const created = await api('POST', '/domains', { key: account.key, body: { name } });
    await publishAll(created.body.domain.records);
    expect(
      (await api('POST', `/domains/${created.body.domain.id}`, { key: account.key, body: { action: 'verify' } })).body.domain.status,
    ).toBe('verified');
    // 100 a day over 8 shards: leave 7 places, spread so that no single shard holds 3 of them.
    const caps = shardCaps(100);
    const free = [2, 2, 1, 1, 1, 0, 0, 0];
    await setUsage(account.id, 'PLAN', 'DAY', today(), 0);
    const { DynamoDBDocumentClient, PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: stack().info.endpoints.dynamodb, region: stack().info.region }),
    );
    for (let shard = 0; shard < caps.length; shard++) {
      await client.send(
        new PutCommand({
          TableName: stack().info.env.TABLE_NAME,
          Item: { ...keys.usageShard(account.id, 'PLAN', 'DAY', today(), shard), count: caps[shard]! - free[shard]! },
        }),
      );
    }
    client.destroy();
    // 6 sends of 3 recipients race for 7 places: exactly 2 fit (6 places), whatever the interleaving.
    const sends = await Promise.all(
      Array.from({ length: 6 }, () =>
        api('POST', '/emails', {
          key: account.key,
          body: { from: `a@${name}`, to: [uniqueEmail('r'), uniqueEmail('r'), uniqueEmail('r')], subject: 'edge', text: 't' },
        }),
      ),
    );
    expect(sends.filter((r) => r.status === 200)).toHaveLength(2);
    expect(sends.filter((r) => r.status === 429)).toHaveLength(4);
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(99);
    // The last place still goes to a one-recipient send; then the counter is full.
    expect(
      (await api('POST', '/emails', { key: account.key, body: { from: `a@${name}`, to: uniqueEmail('r'), subject: 'last', text: 't' } }))
        .status,
    ).toBe(200);
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(100);
  });

  it('enforces the free monthly limit', async () => {
    const account = await newAccount({ plan: 'free' });
    await setUsage(account.id, 'PLAN', 'MONTH', month(), 3000);
    const refused = await sandboxSend(account.key, account.email);
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ limit: 3000, period: 'month', used: 3000 });
  });

  it('caps the sandbox sender on its own, whatever the plan', async () => {
    const account = await newAccount({ plan: 'pro', paymentMethod: true });
    await setUsage(account.id, 'SANDBOX', 'DAY', today(), 100);
    const refused = await sandboxSend(account.key, account.email);
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ scope: 'sandbox', period: 'day', limit: 100 });
  });

  it('does not cap paid plans monthly (overage is billed) but still counts', async () => {
    const account = await newAccount({ plan: 'pro' });
    await setUsage(account.id, 'PLAN', 'MONTH', month(), 1_000_000);
    expect((await sandboxSend(account.key, account.email)).status).toBe(200);
    // Uncapped counters are counted by the outbox relay, off the request path.
    expect(await settledUsage(account.id, 'PLAN', 'MONTH', month(), 1_000_001)).toBe(1_000_001);
  });

  it('refuses without counting when the request is refused for another reason', async () => {
    const account = await newAccount();
    expect((await sandboxSend(account.key, 'stranger@example.com')).status).toBe(403);
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(0);
  });
});

describe('suppressed recipients', () => {
  it('refuse the send with 422 and details.suppressed', async () => {
    const account = await newAccount();
    const added = await api('POST', '/suppressions', { key: account.key, body: { email: account.email.toUpperCase() } });
    expect(added.status).toBeLessThan(300);
    const refused = await sandboxSend(account.key, account.email);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'validation_error', details: { suppressed: [account.email] } });
    await api('DELETE', `/suppressions?email=${encodeURIComponent(account.email)}`, { key: account.key });
    expect((await sandboxSend(account.key, account.email)).status).toBe(200);
  });
});

describe('category opt-outs', () => {
  it('refuse product and newsletter mail with details.category_unsubscribed, never transactional mail', async () => {
    const account = await newAccount();
    await stack().services.categoryOptOuts.add({
      account_id: account.id,
      tenant: null,
      email: account.email,
      category: 'product',
      created_at: new Date().toISOString(),
    });
    const product = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@sandbox.mailservice.dev', to: account.email, subject: 'p', text: 't', category: 'product' },
    });
    expect(product.status).toBe(422);
    expect(product.body.error).toMatchObject({
      code: 'validation_error',
      details: { category_unsubscribed: [account.email], category: 'product', email_id: expect.stringMatching(/^msg_/) },
    });
    const kept = await api('GET', `/emails/${product.body.error.details.email_id}`, { key: account.key });
    expect(kept.body.email).toMatchObject({ status: 'failed', last_event: 'suppressed' });
    expect(
      (
        await api('POST', '/emails', {
          key: account.key,
          body: { from: 'a@sandbox.mailservice.dev', to: account.email, subject: 'n', text: 't', category: 'newsletter' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api('POST', '/emails', {
          key: account.key,
          body: { from: 'a@sandbox.mailservice.dev', to: account.email, subject: 't', text: 't' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('a failed hand-off', () => {
  // Immediate sends have no hand-off on the request path (the table's stream is the outbox); a scheduled
  // send hands off to the scheduler, and a failure there must leave nothing behind.
  it('leaves nothing half-created: 503, no email, no counted usage, no idempotency record', async () => {
    const account = await newAccount();
    const { services } = stack();
    const principal = {
      account: (await services.accounts.get(account.id))!,
      credential: { kind: 'api_key' as const, id: 'k', scopes: ['full'], tenant: null, allowed_domains: null },
    };
    // The real store, with a scheduler that is down.
    const deps = {
      ...services,
      scheduler: { upsert: async () => Promise.reject(new Error('Scheduler is down')), remove: async () => undefined },
    };
    const before = await usage(account.id, 'PLAN', 'DAY', today());
    const { sendEmail } = await import('#shared/usecases/send');
    const at = new Date(Date.now() + 3600_000).toISOString();
    const attempt = sendEmail(
      deps,
      { principal },
      { from: { email: 'a@sandbox.mailservice.dev' }, to: [account.email], subject: 'down', text: 't', scheduled_at: at },
      { idempotency: { key: 'handoff-key', fingerprint: 'f' } },
    );
    await expect(attempt).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(await usage(account.id, 'PLAN', 'DAY', today())).toBe(before);
    expect(await services.idempotency.get(account.id, 'handoff-key', new Date())).toBeNull();
    const list = await api('GET', '/emails', { key: account.key });
    expect(list.body.emails.filter((e: { subject: string }) => e.subject === 'down')).toEqual([]);
  });
});
