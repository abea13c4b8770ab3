/**
 * The tenant rules of the send path against the local cloud: a named tenant (external_id or id), a
 * tenant-limited key, domains owned by tenants (domain_not_allowed, rule 12), default_from_domain,
 * paused and transactional_only tenants, the tenant's suppression list, batch items, resend, and
 * scheduled emails of a tenant paused or made transactional_only before their firing, or cancelled by its deletion.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { api, emailOf, newAccount, sesMessagesFor, stack, waitFor, waitForStatus, type TestAccount } from './harness/stack';
import { documentClient } from './harness/usage';
import { publishAll, uniqueDomain } from './harness/dns';
import { unique, createTenant } from './harness/tenants';
import { inboxRequests } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';
const tableName = () => stack().info.env.TABLE_NAME!;

async function tenantKey(account: TestAccount, tenant: string): Promise<string> {
  const response = await api('POST', '/api-keys', { key: account.key, body: { name: 'tenant key', scopes: ['full'], tenant } });
  expect(response.status).toBe(201);
  return response.body.secret;
}

/** A verified domain of the account; `tenantId` makes a tenant own it (the claim's tenant_id, as the domains feature writes it). */
async function verifiedDomain(account: TestAccount, tenantId: string | null = null): Promise<string> {
  const name = uniqueDomain();
  const added = await api('POST', '/domains', { key: account.key, body: { name } });
  expect(added.status).toBe(201);
  await publishAll(added.body.domain.records);
  const verified = await api('POST', `/domains/${added.body.domain.id}`, { key: account.key, body: { action: 'verify' } });
  expect(verified.body.domain.status).toBe('verified');
  if (tenantId) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.domainName(name),
        UpdateExpression: 'SET tenant_id = :t',
        ExpressionAttributeValues: { ':t': tenantId },
      }),
    );
  }
  return name;
}

const send = (key: string, body: Record<string, unknown>) =>
  api('POST', '/emails', { key, body: { to: 'someone@example.com', subject: 's', text: 't', ...body } });

describe('tenant sends', () => {
  let account: TestAccount;
  let acme: { id: string; external_id: string };
  let globex: { id: string; external_id: string };
  let shared: string;
  let acmeDomain: string;
  let globexDomain: string;

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = await createTenant(account);
    globex = await createTenant(account);
    shared = await verifiedDomain(account);
    acmeDomain = await verifiedDomain(account, acme.id);
    globexDomain = await verifiedDomain(account, globex.id);
  });

  it('sends for a tenant named by external_id or id; the email carries the tenant and goes out', async () => {
    for (const ref of [acme.external_id, acme.id]) {
      const sent = await send(account.key, { from: `hi@${shared}`, tenant: ref });
      expect(sent.status).toBe(200);
      const email = await waitForStatus(account, sent.body.id, 'delivered');
      expect(email.tenant).toBe(acme.external_id);
    }
    const plain = await send(account.key, { from: `hi@${shared}` });
    expect((await emailOf(account, plain.body.id)).tenant).toBeNull();
    for (const ref of ['nobody', 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const missing = await send(account.key, { from: `hi@${shared}`, tenant: ref });
      expect({ ref, status: missing.status, code: missing.body.error?.code }).toEqual({ ref, status: 404, code: 'not_found' });
    }
    // Another account's tenant is not found for this account.
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    expect((await send(other.key, { from: `a@${SANDBOX}`, to: other.email, tenant: acme.id })).status).toBe(404);
    expect((await send(other.key, { from: `a@${SANDBOX}`, to: other.email, tenant: acme.external_id })).status).toBe(404);
  });

  it('refuses a paused tenant and product email of a transactional_only tenant with 403 forbidden', async () => {
    const paused = await createTenant(account);
    expect((await api('PATCH', `/tenants/${paused.id}`, { key: account.key, body: { status: 'paused', reason: 'unpaid' } })).status).toBe(
      200,
    );
    const refused = await send(account.key, { from: `hi@${shared}`, tenant: paused.external_id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', details: { tenant: paused.external_id, paused_reason: 'unpaid' } });
    expect((await api('PATCH', `/tenants/${paused.id}`, { key: account.key, body: { status: 'active' } })).status).toBe(200);
    expect((await send(account.key, { from: `hi@${shared}`, tenant: paused.external_id })).status).toBe(200);

    const strict = await createTenant(account, { stream_policy: 'transactional_only' });
    for (const category of ['product', 'newsletter']) {
      const product = await send(account.key, { from: `hi@${shared}`, tenant: strict.external_id, category });
      expect({ category, status: product.status, code: product.body.error?.code }).toEqual({ category, status: 403, code: 'forbidden' });
    }
    expect((await send(account.key, { from: `hi@${shared}`, tenant: strict.external_id, category: 'transactional' })).status).toBe(200);
    expect((await send(account.key, { from: `hi@${shared}`, tenant: strict.external_id })).status).toBe(200);
  });

  it('a key limited to a tenant sends as its tenant, and 403 forbidden when naming another', async () => {
    const key = await tenantKey(account, acme.external_id);
    const mine = await send(key, { from: `hi@${shared}` });
    expect(mine.status).toBe(200);
    expect((await emailOf(account, mine.body.id)).tenant).toBe(acme.external_id);
    expect((await send(key, { from: `hi@${shared}`, tenant: acme.id })).status).toBe(200);
    const other = await send(key, { from: `hi@${shared}`, tenant: globex.external_id });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('forbidden');
    // The tenant key's own domain works; another tenant's domain does not.
    expect((await send(key, { from: `hi@${acmeDomain}` })).status).toBe(200);
    const foreign = await send(key, { from: `hi@${globexDomain}` });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatchObject({ code: 'domain_not_allowed', details: { domain: globexDomain } });
  });

  it("refuses a domain owned by another tenant (403 domain_not_allowed); with no tenant named the email is the domain owner's (rule 12)", async () => {
    const crossed = await send(account.key, { from: `hi@${globexDomain}`, tenant: acme.external_id });
    expect(crossed.status).toBe(403);
    expect(crossed.body.error).toMatchObject({ code: 'domain_not_allowed', details: { domain: globexDomain, tenant: acme.external_id } });
    const implied = await send(account.key, { from: `hi@${globexDomain}` });
    expect(implied.status).toBe(200);
    expect((await emailOf(account, implied.body.id)).tenant).toBe(globex.external_id);
    // ... and that tenant's rules apply: paused, it is refused.
    expect((await api('PATCH', `/tenants/${globex.id}`, { key: account.key, body: { status: 'paused' } })).status).toBe(200);
    try {
      const refused = await send(account.key, { from: `hi@${globexDomain}` });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    } finally {
      await api('PATCH', `/tenants/${globex.id}`, { key: account.key, body: { status: 'active' } });
    }
  });

  it('completes a bare local part with the tenant default_from_domain; 400 naming from otherwise', async () => {
    const billing = await createTenant(account, { default_from_domain: shared });
    for (const from of ['billing', 'Billing <billing>', { email: 'billing', name: 'Billing' }]) {
      const sent = await send(account.key, { from, tenant: billing.external_id });
      expect({ from, status: sent.status }).toEqual({ from, status: 200 });
      const email = await waitForStatus(account, sent.body.id, 'delivered');
      expect(email.from).toMatch(new RegExp(`billing@${shared.replace(/\./g, '\\.')}>?$`));
      expect(email.tenant).toBe(billing.external_id);
    }
    for (const body of [{ from: 'billing' }, { from: 'billing', tenant: acme.external_id }]) {
      const refused = await send(account.key, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'validation_error',
        details: { fields: [expect.objectContaining({ field: 'from' })] },
      });
    }
  });

  it('checks the tenant suppression list and the account list', async () => {
    const blocked = `blocked+${Date.now()}@example.com`;
    expect(
      (await api('POST', '/suppressions', { key: account.key, body: { email: blocked, tenant: acme.external_id } })).status,
    ).toBeLessThan(300);
    const refused = await send(account.key, { from: `hi@${shared}`, to: blocked, tenant: acme.external_id });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.suppressed).toEqual([blocked]);
    expect((await emailOf(account, refused.body.error.details.email_id)).tenant).toBe(acme.external_id);
    // The tenant's list does not block the account or another tenant.
    expect((await send(account.key, { from: `hi@${shared}`, to: blocked, tenant: globex.external_id })).status).toBe(200);
    expect((await send(account.key, { from: `hi@${shared}`, to: blocked })).status).toBe(200);
    // The account's list blocks every tenant.
    const everywhere = `everywhere+${Date.now()}@example.com`;
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: everywhere } })).status).toBeLessThan(300);
    expect((await send(account.key, { from: `hi@${shared}`, to: everywhere, tenant: globex.external_id })).status).toBe(422);
  });

  it('applies the same rules to each batch item, reported per item', async () => {
    const paused = await createTenant(account);
    await api('PATCH', `/tenants/${paused.external_id}`, { key: account.key, body: { status: 'paused' } });
    const item = (extra: Record<string, unknown>) => ({
      from: `hi@${shared}`,
      to: 'someone@example.com',
      subject: 's',
      text: 't',
      ...extra,
    });
    const batch = await api('POST', '/emails/batch', {
      key: account.key,
      body: {
        emails: [
          item({ tenant: acme.external_id }),
          item({ tenant: globex.id }),
          item({ tenant: paused.external_id }),
          item({ tenant: 'nobody' }),
          item({ from: `hi@${globexDomain}`, tenant: acme.external_id }),
          item({ from: 'billing' }),
          item({}),
        ],
      },
    });
    expect(batch.status).toBe(200);
    const data = batch.body.data;
    expect(data.map((d: { status: string; error?: { code: string } }) => d.error?.code ?? d.status)).toEqual([
      'sent',
      'sent',
      'forbidden',
      'not_found',
      'domain_not_allowed',
      'validation_error',
      'sent',
    ]);
    expect((await emailOf(account, data[0].id)).tenant).toBe(acme.external_id);
    expect((await emailOf(account, data[1].id)).tenant).toBe(globex.external_id);
    expect((await emailOf(account, data[6].id)).tenant).toBeNull();
  });

  it('resends a tenant email as that tenant (403 while it is paused)', async () => {
    const resendable = await createTenant(account);
    const original = await send(account.key, { from: `hi@${shared}`, tenant: resendable.external_id });
    const again = await api('POST', `/emails/${original.body.id}/resend`, { key: account.key });
    expect(again.status).toBe(200);
    expect((await emailOf(account, again.body.id)).tenant).toBe(resendable.external_id);
    await api('PATCH', `/tenants/${resendable.id}`, { key: account.key, body: { status: 'paused' } });
    const refused = await api('POST', `/emails/${original.body.id}/resend`, { key: account.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  });

  // The three scheduled-send tests run at once (`it.concurrent`), each with tenants, emails and endpoints of its own:
  // their waits for the schedules' times overlap.
  it.concurrent('does not send a scheduled email whose tenant was paused before its time: failed with the reason, email.failed', async () => {
    const later = await createTenant(account);
    const inbox = stack().info.webhook_inbox_url!;
    const hookPath = unique('failed-hook');
    const hook = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${inbox}${hookPath}`, events: ['email.failed'], tenants: [later.external_id] },
    });
    expect(hook.status).toBe(200);
    const scheduled = await send(account.key, {
      from: `hi@${shared}`,
      tenant: later.external_id,
      scheduled_at: new Date(Date.now() + 2500).toISOString(),
    });
    expect(scheduled.body.status).toBe('scheduled');
    expect(
      (await api('PATCH', `/tenants/${later.id}`, { key: account.key, body: { status: 'paused', reason: 'abuse report' } })).status,
    ).toBe(200);
    const failed = await waitForStatus(account, scheduled.body.id, 'failed', 20_000);
    expect(failed).toMatchObject({
      tenant: later.external_id,
      last_event: 'failed',
      bounce_reason: expect.stringMatching(/paused.*abuse report/),
    });
    expect(await sesMessagesFor(scheduled.body.id)).toEqual([]);
    const delivered = await waitFor(
      async () => {
        return (await inboxRequests(hookPath))[0];
      },
      'email.failed at the tenant-filtered endpoint',
      60_000,
    ); // the webhook pipeline under the whole suite's load
    expect(JSON.parse(delivered.body)).toMatchObject({
      type: 'email.failed',
      data: { email_id: scheduled.body.id, status: 'failed', tenant: later.external_id },
    });
  }, 120_000);

  it.concurrent('does not send a scheduled product email whose tenant became transactional_only before its time; its transactional email goes', async () => {
    const tenant = await createTenant(account);
    const at = new Date(Date.now() + 2500).toISOString();
    const product = await send(account.key, { from: `hi@${shared}`, tenant: tenant.external_id, category: 'product', scheduled_at: at });
    const newsletter = await send(account.key, { from: `hi@${shared}`, tenant: tenant.id, category: 'newsletter', scheduled_at: at });
    const transactional = await send(account.key, {
      from: `hi@${shared}`,
      tenant: tenant.external_id,
      category: 'transactional',
      scheduled_at: at,
    });
    const uncategorised = await send(account.key, { from: `hi@${shared}`, tenant: tenant.external_id, scheduled_at: at });
    expect([product, newsletter, transactional, uncategorised].map((r) => r.body.status)).toEqual([
      'scheduled',
      'scheduled',
      'scheduled',
      'scheduled',
    ]);
    expect((await api('PATCH', `/tenants/${tenant.id}`, { key: account.key, body: { stream_policy: 'transactional_only' } })).status).toBe(
      200,
    );
    for (const [refused, category] of [
      [product, 'product'],
      [newsletter, 'newsletter'],
    ] as const) {
      const failed = await waitForStatus(account, refused.body.id, 'failed', 20_000);
      expect(failed).toMatchObject({
        tenant: tenant.external_id,
        last_event: 'failed',
        bounce_reason: expect.stringMatching(new RegExp(`transactional.*${category}`)),
      });
      expect(await sesMessagesFor(refused.body.id)).toEqual([]);
    }
    for (const sent of [transactional, uncategorised]) {
      expect(await waitForStatus(account, sent.body.id, 'delivered', 20_000)).toMatchObject({ tenant: tenant.external_id });
      expect(await sesMessagesFor(sent.body.id)).toHaveLength(1);
    }
  });

  it.concurrent('cancels the scheduled emails of a tenant deleted before their time: never sent, tenant null, no event; a new tenant with the same external_id gets none of them', async () => {
    const doomed = await createTenant(account);
    const reused = await createTenant(account);
    // Ten seconds ahead: two sends and two deletes must land before the schedules fire (3 s was too close on a
    // loaded 2-core machine: a schedule fired first, the email failed instead of being cancelled).
    const at = new Date(Date.now() + 10_000).toISOString();
    const scheduled = [
      await send(account.key, { from: `hi@${shared}`, tenant: doomed.external_id, scheduled_at: at }),
      await send(account.key, { from: `hi@${shared}`, tenant: reused.id, scheduled_at: at }),
    ].map((r) => {
      expect(r.body.status).toBe('scheduled');
      return r.body.id as string;
    });
    for (const tenant of [doomed, reused]) expect((await api('DELETE', `/tenants/${tenant.id}`, { key: account.key })).status).toBe(200);
    for (const id of scheduled)
      expect(await emailOf(account, id)).toMatchObject({ status: 'cancelled', tenant: null, cancelled_at: expect.any(String) });
    // The platform reuses a customer id for a new tenant, with an endpoint filtered to it.
    const reborn = (await api('POST', '/tenants', { key: account.key, body: { external_id: reused.external_id } })).body.tenant;
    expect(reborn.id).not.toBe(reused.id);
    const inbox = stack().info.webhook_inbox_url!;
    const paths = { reborn: unique('reborn-hook'), all: unique('all-failed-hook') };
    const rebornHook = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${inbox}${paths.reborn}`, events: ['email.failed'], tenants: [reborn.external_id] },
    });
    const allHook = await api('POST', '/webhooks', { key: account.key, body: { url: `${inbox}${paths.all}`, events: ['email.failed'] } });
    expect([rebornHook.status, allHook.status]).toEqual([200, 200]);

    // Their time passes (their schedules fire into nothing): still cancelled, never sent.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(at) - Date.now()) + 3000));
    for (const id of scheduled) {
      expect(await emailOf(account, id)).toMatchObject({ status: 'cancelled', tenant: null });
      expect(await sesMessagesFor(id)).toEqual([]);
    }
    // The new tenant's own email events do reach it, and only those.
    const own = await send(account.key, {
      from: `hi@${shared}`,
      tenant: reborn.external_id,
      scheduled_at: new Date(Date.now() + 3000).toISOString(),
    });
    expect((await api('PATCH', `/tenants/${reborn.id}`, { key: account.key, body: { status: 'paused' } })).status).toBe(200);
    await waitForStatus(account, own.body.id, 'failed', 20_000);
    const delivered = await waitFor(
      async () => (await api('GET', `/webhooks/${rebornHook.body.webhook.id}/deliveries`, { key: account.key })).body.deliveries[0],
      'its own email.failed',
    );
    expect(delivered.payload).toMatchObject({ type: 'email.failed', data: { email_id: own.body.id, tenant: reborn.external_id } });
    const bodies = await waitFor(async () => {
      const found = (await inboxRequests(paths.all)).map((r) => JSON.parse(r.body));
      return found.some((b) => b.data.email_id === own.body.id) ? found : undefined;
    }, 'the new tenant email.failed at the unfiltered endpoint');
    // The endpoint takes every email.failed of the account: earlier tests' may still be on their way. Of this
    // test's emails, only the new tenant's own reached it (the cancelled ones never failed).
    expect(bodies.map((b) => b.data.email_id).filter((id: string) => id === own.body.id || scheduled.includes(id))).toEqual([own.body.id]);
    expect((await api('GET', `/webhooks/${rebornHook.body.webhook.id}/deliveries`, { key: account.key })).body.deliveries).toHaveLength(1);
  }, 120_000);

  it('answers 403 tenants_not_enabled for a tenant on an account without tenants', async () => {
    const plain = await newAccount({ plan: 'scale', paymentMethod: true, tenants: false });
    const refused = await send(plain.key, { from: `a@${SANDBOX}`, to: plain.email, tenant: 'acme' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('tenants_not_enabled');
  });
});
