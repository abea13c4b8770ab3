/**
 * The reputation guard on a stack of its own (docs/deliverability.md, "Reputation guard"): its deployment's
 * counters are this file's alone, and its settings lower the brake's minimum volumes so a handful of emails
 * count (REPUTATION_DEPLOYMENT_MIN_SENT=10, REPUTATION_OFFENDER_MIN_SENT=3; the rates keep their defaults,
 * 4% and 0.08%). Several accounts send through the local SES; one sends to the mailbox simulator's bounce
 * address: the brake pauses that account (not the others) from the table's stream, account.paused reaches
 * its webhook endpoint, its next send answers 403 account_paused while the others still send, and the
 * operator's `admin account resume` lets it send again. Then a tenant driving the rate inside a healthy
 * account is paused as a tenant, its account left sending.
 */
import { useOwnStack } from './harness/own-stack';
import type { TestAccount } from './harness/stack';

jest.setTimeout(240_000);

describe('reputation guard (stack of its own, lowered volumes)', () => {
  const { dataDir } = useOwnStack('mailservice-reputation-', { REPUTATION_DEPLOYMENT_MIN_SENT: '10', REPUTATION_OFFENDER_MIN_SENT: '3' });
  let harness: typeof import('./harness/stack');
  let domains: typeof import('./harness/domains');
  let tenants: typeof import('./harness/tenants');
  let inbox: typeof import('./harness/webhook-inbox');
  let admin: typeof import('./harness/admin-cli');

  beforeAll(async () => {
    harness = await import('./harness/stack');
    domains = await import('./harness/domains');
    tenants = await import('./harness/tenants');
    inbox = await import('./harness/webhook-inbox');
    admin = await import('./harness/admin-cli');
  });

  /** An account that may send to anyone (a payment method and a verified domain), and its sender address. */
  async function sender(options: { tenants?: boolean } = {}): Promise<{ account: TestAccount; from: string }> {
    const account = await harness.newAccount({ plan: 'scale', paymentMethod: true, tenants: options.tenants ?? false });
    const domain = await domains.verifiedDomain(account);
    return { account, from: `hello@${domain.name}` };
  }

  const send = (who: { account: TestAccount; from: string }, to: string, extra: Record<string, unknown> = {}) =>
    harness.api('POST', '/emails', { key: who.account.key, body: { from: who.from, to, subject: 'Reputation', text: 'Hello', ...extra } });

  /** Sends `count` emails and waits for each outcome (the counters count outcomes from the stream). */
  async function sendAll(
    who: { account: TestAccount; from: string },
    recipients: string[],
    outcome: 'delivered' | 'bounced',
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const ids: string[] = [];
    for (const to of recipients) {
      const answer = await send(who, to, extra);
      expect({ to, status: answer.status }).toEqual({ to, status: 200 });
      ids.push(answer.body.id);
    }
    for (const id of ids) await harness.waitForStatus(who.account, id, outcome, 60_000);
  }

  const addresses = (kind: 'success' | 'bounce', count: number, tag: string) =>
    Array.from({ length: count }, (_, i) => `${kind}+${tag}${i}@simulator.amazonses.com`);

  it('pauses the account driving the bounce rate (webhook, 403 on every send), not the others; the operator resumes it', async () => {
    const healthy = await sender();
    const offender = await sender();
    const path = tenants.unique('reputation');
    const webhook = await harness.api('POST', '/webhooks', {
      key: offender.account.key,
      body: { url: `${harness.stack().info.webhook_inbox_url}${path}`, events: ['account.paused', 'account.resumed'] },
    });
    expect(webhook.status).toBe(200);

    // The deployment's volume first: 12 delivered emails of a healthy account (no bounce: no brake check).
    await sendAll(healthy, addresses('success', 12, 'h'), 'delivered');
    // An email the offender schedules before its bounces, to fire after the pause: not sent then. Half a minute ahead,
    // so the pause surely comes first; once it has, the email's time is brought forward (below).
    const scheduled = await send(offender, 'success+later@simulator.amazonses.com', {
      scheduled_at: new Date(Date.now() + 30_000).toISOString(),
    });
    expect(scheduled.status).toBe(200);
    // Then 4 bounces of the offender: the deployment's rate is 4 of 16 (25%, over 4%), the offender's 100%.
    await sendAll(offender, addresses('bounce', 4, 'o'), 'bounced');

    const paused = await harness.waitFor(async () => {
      const account = await harness.api('GET', '/account', { key: offender.account.key });
      return account.body.status === 'paused' ? account.body : undefined;
    }, 'the offender paused by the brake');
    expect(paused).toMatchObject({
      status: 'paused',
      pause_source: 'automated',
      paused_reason: expect.stringContaining('Reputation brake'),
      pause_figures: {
        rule: 'deployment_brake',
        metric: 'bounce',
        threshold: 0.04,
        window_days: 2,
        account: { bounced: expect.any(Number) },
        deployment: { sent: expect.any(Number) },
      },
    });
    expect(paused.pause_figures.account.bounce_rate).toBeGreaterThan(0.04);
    expect(paused.pause_figures.deployment.bounce_rate).toBeGreaterThanOrEqual(0.04);
    expect((await harness.api('GET', '/account', { key: healthy.account.key })).body).toMatchObject({
      status: 'active',
      paused_reason: null,
      pause_figures: null,
    });

    // account.paused at the offender's endpoint, with the reason and the figures.
    const event = await harness.waitFor(async () => {
      const requests = await inbox.inboxRequests(path);
      const bodies = requests.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
      return bodies.find((body) => body.type === 'account.paused');
    }, 'account.paused delivered');
    expect(event.data).toMatchObject({
      account_id: offender.account.id,
      status: 'paused',
      pause_source: 'automated',
      pause_figures: { rule: 'deployment_brake' },
    });

    // Its next send is refused, at every door of the send core (the batch's item too); the others still send.
    const refused = await send(offender, 'success+after@simulator.amazonses.com');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'account_paused',
      details: { account_id: offender.account.id, status: 'paused', pause_source: 'automated' },
    });
    expect(refused.body.error.message).toContain('Reputation brake');
    const batch = await harness.api('POST', '/emails/batch', {
      key: offender.account.key,
      body: [{ from: offender.from, to: 'success+b@simulator.amazonses.com', subject: 's', text: 't' }],
    });
    expect(batch.body.data[0]).toMatchObject({ status: 'failed', error: { code: 'account_paused' } });
    expect((await send(healthy, 'success+still@simulator.amazonses.com')).status).toBe(200);
    // The email scheduled before the pause, its time brought forward to now (the half minute ahead was only a margin
    // for the pause to come first): it fails when it fires, saying why (the account as of the firing).
    const brought = await harness.api('PATCH', `/emails/${scheduled.body.id}`, {
      key: offender.account.key,
      body: { scheduled_at: new Date(Date.now() + 1000).toISOString() },
    });
    expect({ status: brought.status, email: brought.body.email?.status }).toEqual({ status: 200, email: 'scheduled' });
    const fired = await harness.waitFor(
      async () => {
        const email = await harness.api('GET', `/emails/${scheduled.body.id}`, { key: offender.account.key });
        if (email.body.email?.status !== 'failed') throw new Error(`${email.status} ${JSON.stringify(email.body).slice(0, 300)}`);
        return email.body.email;
      },
      'the scheduled email refused at its firing',
      60_000,
    );
    expect(fired.bounce_reason).toContain('Not sent: the account was paused before the scheduled time: Reputation brake');

    // The operator resumes it: it sends again, and account.resumed follows.
    const resumed = await admin.runAdminCli(dataDir, 'account', 'resume', '--id', offender.account.id);
    expect({ code: resumed.code, stderr: resumed.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(JSON.parse(resumed.stdout.trim().split('\n').pop()!)).toMatchObject({
      account_id: offender.account.id,
      status: 'active',
      paused_reason: null,
    });
    await harness.waitFor(
      async () => ((await send(offender, 'success+resumed@simulator.amazonses.com')).status === 200 ? true : undefined),
      'the resumed account sending again',
    );
    await harness.waitFor(async () => {
      const requests = await inbox.inboxRequests(path);
      return requests.some((r) => JSON.parse(r.body).type === 'account.resumed') || undefined;
    }, 'account.resumed delivered');
  });

  it('pauses a tenant driving the rate inside a healthy account as a tenant; the account and its other tenant still send', async () => {
    const owner = await sender({ tenants: true });
    const bad = await tenants.createTenant(owner.account, {}, 'bad');
    const good = await tenants.createTenant(owner.account, {}, 'good');
    await sendAll(owner, addresses('success', 10, 'own'), 'delivered');
    await sendAll(owner, addresses('success', 2, 'good'), 'delivered', { tenant: good.external_id });
    await sendAll(owner, addresses('bounce', 4, 'bad'), 'bounced', { tenant: bad.external_id });

    const tenant = await harness.waitFor(async () => {
      const found = await harness.api('GET', `/tenants/${bad.external_id}`, { key: owner.account.key });
      return found.body.tenant?.status === 'paused' ? found.body.tenant : undefined;
    }, 'the bouncing tenant paused by the brake');
    expect(tenant).toMatchObject({
      status: 'paused',
      pause_source: 'automated',
      paused_reason: expect.stringContaining("this tenant's own bounce rate"),
    });
    expect((await harness.api('GET', '/account', { key: owner.account.key })).body.status).toBe('active');
    expect((await harness.api('GET', `/tenants/${good.external_id}`, { key: owner.account.key })).body.tenant.status).toBe('active');
    const refused = await send(owner, 'success+t@simulator.amazonses.com', { tenant: bad.external_id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', details: { tenant: bad.external_id, status: 'paused' } });
    expect((await send(owner, 'success+g@simulator.amazonses.com', { tenant: good.external_id })).status).toBe(200);
    expect((await send(owner, 'success+o@simulator.amazonses.com')).status).toBe(200);
  });
});
