/**
 * Webhooks and tenants against the local cloud: an endpoint filtered to tenants gets only the email
 * events of those tenants (spec, Events: no email.received, contact.* or automation.*; ours: no tenant.*),
 * which an unfiltered endpoint of the same account gets; and the tenant.paused / tenant.resumed test
 * payloads of POST /emails/test have the documented shape (docs/tenants.md, Tenant events).
 */
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { createTenant, unique, type TenantView } from './harness/tenants';
import { inboxRequests } from './harness/webhook-inbox';

const NOT_FOR_TENANT_FILTERS = [
  'email.received',
  'contact.unsubscribed',
  'automation.started',
  'automation.step_completed',
  'automation.completed',
  'automation.failed',
  'tenant.paused',
  'tenant.resumed',
];

/**
 * The events that reached `path`, each once: delivery is at least once (a retry carries the same
 * webhook-id, docs/webhooks.md), so a repeat under load is not a second event.
 */
async function receivedAt(path: string): Promise<{ id: string; type: string; data: Record<string, unknown> }[]> {
  const byId = new Map<string, { id: string; type: string; data: Record<string, unknown> }>();
  for (const r of (await inboxRequests(path)).reverse())
    if (!byId.has(r.headers['webhook-id']!)) byId.set(r.headers['webhook-id']!, { id: r.headers['webhook-id']!, ...JSON.parse(r.body) });
  return [...byId.values()];
}

async function endpoint(account: TestAccount, path: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/webhooks', { key: account.key, body: { url: `${stack().info.webhook_inbox_url}${path}`, ...extra } });
  expect(created.status).toBe(200);
  return created.body.webhook.id;
}

async function testEvent(
  account: TestAccount,
  body: Record<string, unknown>,
): Promise<{ id: string; payload: { type: string; created_at: string; data: Record<string, unknown> } }> {
  const response = await api('POST', '/emails/test', { key: account.key, body });
  expect({ body, status: response.status }).toEqual({ body, status: 200 });
  return response.body;
}

describe('webhooks of tenants', () => {
  let account: TestAccount;
  let t1: TenantView;
  let t2: TenantView;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    t1 = await createTenant(account, { name: 'Tenant One' }, 't1');
    t2 = await createTenant(account, {}, 't2');
  });

  it('an endpoint filtered to tenants gets only their email events: no email.received, contact.*, automation.* or tenant.* (an unfiltered endpoint gets them all)', async () => {
    const paths = { filtered: unique('filtered'), all: unique('all') };
    const filteredId = await endpoint(account, paths.filtered, { tenants: [t1.external_id] });
    await endpoint(account, paths.all);

    // Test events naming t1 of every type a filter excludes, t1's email events, and email events of t2 and of no tenant.
    const excluded: string[] = [];
    for (const event of NOT_FOR_TENANT_FILTERS) excluded.push((await testEvent(account, { event, tenant: t1.external_id })).id);
    const t1Email = [
      (await testEvent(account, { event: 'email.delivered', tenant: t1.external_id })).id,
      (await testEvent(account, { event: 'email.bounced', tenant: t1.id })).id,
    ];
    const others = [
      (await testEvent(account, { event: 'email.delivered', tenant: t2.external_id })).id,
      (await testEvent(account, { event: 'email.delivered' })).id,
    ];
    // Real tenant events: t1 paused and resumed through the API (published from the table's stream).
    expect((await api('PATCH', `/tenants/${t1.id}`, { key: account.key, body: { status: 'paused', reason: 'webhook test' } })).status).toBe(
      200,
    );
    expect((await api('PATCH', `/tenants/${t1.id}`, { key: account.key, body: { status: 'active' } })).status).toBe(200);

    // The unfiltered endpoint gets everything (which also means every event above has been routed).
    const all = await waitFor(async () => {
      const got = await receivedAt(paths.all);
      const real = got.filter((e) => e.type.startsWith('tenant.') && e.data.tenant === t1.external_id && !excluded.includes(e.id));
      return [...excluded, ...t1Email, ...others].every((id) => got.some((e) => e.id === id)) && real.length === 2 ? got : undefined;
    }, 'every event at the unfiltered endpoint');
    expect(
      all
        .filter((e) => excluded.includes(e.id))
        .map((e) => e.type)
        .sort(),
    ).toEqual([...NOT_FOR_TENANT_FILTERS].sort());
    const realTenantEvents = all.filter((e) => e.type.startsWith('tenant.') && !excluded.includes(e.id));
    expect(realTenantEvents.map((e) => [e.type, e.data.tenant, e.data.status]).sort()).toEqual([
      ['tenant.paused', t1.external_id, 'paused'],
      ['tenant.resumed', t1.external_id, 'active'],
    ]);

    // The filtered endpoint: t1's two email events, nothing else, in its delivery log and at the receiver.
    const got = await waitFor(async () => {
      const at = await receivedAt(paths.filtered);
      return at.length >= t1Email.length ? at : undefined;
    }, "t1's email events at the filtered endpoint");
    const log = await api('GET', `/webhooks/${filteredId}/deliveries?limit=100`, { key: account.key });
    expect(log.status).toBe(200);
    expect(log.body.deliveries.map((d: { event_id: string }) => d.event_id).sort()).toEqual([...t1Email].sort());
    expect(got.map((e) => e.id).sort()).toEqual([...t1Email].sort());
    expect(got.map((e) => [e.type, e.data.tenant]).sort()).toEqual([
      ['email.bounced', t1.external_id],
      ['email.delivered', t1.external_id],
    ]);
  });

  it('POST /emails/test builds tenant.paused and tenant.resumed payloads of the documented shape', async () => {
    const path = unique('tenant-events');
    await endpoint(account, path, { events: ['tenant.paused', 'tenant.resumed'] });
    const fields = ['tenant_id', 'tenant', 'name', 'status', 'paused_reason', 'paused_at', 'pause_source', 'changed_at'].sort();

    // No tenant named: an example tenant.
    const example = await testEvent(account, { event: 'tenant.paused', deliver: false });
    expect(example).toMatchObject({ object: 'test_event', queued: false, id: expect.stringMatching(/^evt_/) });
    expect(Object.keys(example.payload).sort()).toEqual(['created_at', 'data', 'type']);
    expect(Object.keys(example.payload.data).sort()).toEqual(fields);
    expect(example.payload).toMatchObject({
      type: 'tenant.paused',
      data: {
        tenant_id: expect.stringMatching(/^ten_[0-9A-Z]{26}$/),
        tenant: expect.any(String),
        name: expect.any(String),
        status: 'paused',
        paused_reason: expect.any(String),
        paused_at: example.payload.created_at,
        pause_source: expect.stringMatching(/^(manual|automated)$/),
        changed_at: example.payload.created_at,
      },
    });

    // A tenant named (by external_id or id): the payload is about that tenant, and it is delivered as returned.
    const paused = await testEvent(account, { event: 'tenant.paused', tenant: t1.id });
    const resumed = await testEvent(account, { event: 'tenant.resumed', tenant: t1.external_id });
    expect(paused.payload.data).toMatchObject({
      tenant_id: t1.id,
      tenant: t1.external_id,
      name: 'Tenant One',
      status: 'paused',
      paused_reason: expect.any(String),
    });
    expect(resumed.payload).toMatchObject({
      type: 'tenant.resumed',
      data: {
        tenant_id: t1.id,
        tenant: t1.external_id,
        name: 'Tenant One',
        status: 'active',
        paused_reason: null,
        paused_at: null,
        pause_source: null,
      },
    });
    expect(Object.keys(resumed.payload.data).sort()).toEqual(fields);
    const delivered = await waitFor(async () => {
      const at = await receivedAt(path);
      return at.length >= 2 ? at : undefined;
    }, 'the two test events');
    for (const sent of [paused, resumed]) {
      const body = delivered.find((e) => e.id === sent.id)!;
      expect({ type: body.type, created_at: (body as any).created_at, data: body.data }).toEqual(sent.payload);
    }
    expect(delivered).toHaveLength(2);

    // Tenant rules on the test event's tenant: unknown 404; another account's 404.
    expect((await api('POST', '/emails/test', { key: account.key, body: { event: 'tenant.paused', tenant: 'nobody' } })).status).toBe(404);
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    expect((await api('POST', '/emails/test', { key: other.key, body: { event: 'tenant.paused', tenant: t1.id } })).status).toBe(404);
  });
});
