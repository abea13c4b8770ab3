/**
 * Plan and sandbox limits through POST /emails: counters reserved atomically with the email, so
 * concurrent sends at the edge of a limit never overshoot; suppressed recipients refuse a send.
 */
import { api, newAccount } from './harness/stack';
import { month, setUsage, today, usage } from './harness/usage';

const SANDBOX = 'sandbox.mailservice.dev';

const sandboxSend = (key: string, to: string) => api('POST', '/emails', { key, body: { from: `a@${SANDBOX}`, to, subject: 'limit', text: 't' } });

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
      details: { limit: 100, period: 'day', scope: 'plan', plan: 'free', requested: 1, resets_at: expect.stringMatching(/T00:00:00.000Z$/) },
    });
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
    expect(await usage(account.id, 'PLAN', 'MONTH', month())).toBe(1_000_001);
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
