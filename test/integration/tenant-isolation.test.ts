/**
 * Isolation on every route that names a tenant (or reaches a tenant's records), against the local cloud,
 * table-driven. Two accounts: A with tenants t1 and t2 and a key limited to t1; B with tenant u1 and a
 * tenant whose external_id is the same as A's t2. Each route is called as
 *   (a) t1's key on t2 (same account, other tenant),
 *   (b) A's full key on B's tenants (by id and by external_id),
 *   (c) B's full key on A's tenants,
 *   (d) t1's key on B's tenant,
 * and must answer exactly the status and code of the spec's tenant rules (docs/tenants.md): 403 forbidden
 * for a key limited to another tenant (and for every account-wide route such a key calls), 404 not_found
 * for a tenant the caller's account does not have, and 404 for another tenant's records by id (never 403:
 * visibility.ts). Afterwards nothing of either account has changed. A last test checks that an external_id
 * used in both accounts always names the caller's own tenant.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { api, newAccount, stack, waitFor, type ApiResponse, type TestAccount } from './harness/stack';
import { uniqueDomain } from './harness/dns';
import { documentClient } from './harness/usage';
import { createTenant, unique, type TenantView } from './harness/tenants';
import { inboxRequests } from './harness/webhook-inbox';

const SANDBOX = 'sandbox.mailservice.dev';
const tableName = () => stack().info.env.TABLE_NAME!;

type Answer = [number, string];
const FORBIDDEN: Answer = [403, 'forbidden'];
const NOT_FOUND: Answer = [404, 'not_found'];

/** What one call needs: the tenant named, that tenant's records, and the caller's own things. */
interface Target {
  ref: string;
  domain: { id: string; name: string };
  emailId: string;
  suppressed: string;
}
interface Caller {
  key: string;
  email: string;
  ownDomain: string;
  ownWebhook: string;
}

interface Row {
  route: string;
  call: (target: Target, caller: Caller) => [string, string, unknown?];
  /** The answer of each case: (a) limited key on a sibling tenant, (bc) another account, (d) limited key on another account's tenant. */
  a: Answer;
  bc: Answer;
  d: Answer;
  /** Where the answer is read from (batch items carry their own). */
  answer?: (response: ApiResponse) => Answer;
}

const enc = encodeURIComponent;
/** Addresses and domain names the rows would add if they were wrongly let through: checked absent afterwards. */
const probes = { addresses: [] as string[], domains: [] as string[] };
const probeAddress = () => {
  const address = `${unique('probe')}@example.com`;
  probes.addresses.push(address);
  return address;
};
const probeDomain = () => {
  const name = uniqueDomain();
  probes.domains.push(name);
  return name;
};

const ROWS: Row[] = [
  { route: 'GET /tenants/{t}', call: (t) => ['GET', `/tenants/${t.ref}`], a: FORBIDDEN, bc: NOT_FOUND, d: NOT_FOUND },
  {
    route: 'PATCH /tenants/{t} pause',
    call: (t) => ['PATCH', `/tenants/${t.ref}`, { status: 'paused', reason: 'hijack' }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: 'PATCH /tenants/{t} settings',
    call: (t) => ['PATCH', `/tenants/${t.ref}`, { name: 'hijacked', daily_limit: 1, metadata: { x: 1 } }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  { route: 'DELETE /tenants/{t}', call: (t) => ['DELETE', `/tenants/${t.ref}`], a: FORBIDDEN, bc: NOT_FOUND, d: FORBIDDEN },
  { route: 'GET /tenants/{t}/stats', call: (t) => ['GET', `/tenants/${t.ref}/stats?days=7`], a: FORBIDDEN, bc: NOT_FOUND, d: NOT_FOUND },
  {
    route: 'POST /tenants/{t}/domains',
    call: (t, c) => ['POST', `/tenants/${t.ref}/domains`, { domain: c.ownDomain }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  { route: 'GET /tenants/{t}/domains', call: (t) => ['GET', `/tenants/${t.ref}/domains`], a: FORBIDDEN, bc: NOT_FOUND, d: NOT_FOUND },
  {
    route: 'DELETE /tenants/{t}/domains/{d} (by id)',
    call: (t) => ['DELETE', `/tenants/${t.ref}/domains/${t.domain.id}`],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: 'DELETE /tenants/{t}/domains/{d} (by name)',
    call: (t) => ['DELETE', `/tenants/${t.ref}/domains/${t.domain.name}`],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  { route: 'GET /emails?tenant=', call: (t) => ['GET', `/emails?tenant=${enc(t.ref)}`], a: FORBIDDEN, bc: NOT_FOUND, d: NOT_FOUND },
  {
    route: 'POST /emails with tenant',
    call: (t, c) => ['POST', '/emails', { from: `a@${SANDBOX}`, to: c.email, subject: 's', text: 't', tenant: t.ref }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: 'POST /emails/batch item with tenant',
    call: (t, c) => ['POST', '/emails/batch', { emails: [{ from: `a@${SANDBOX}`, to: c.email, subject: 's', text: 't', tenant: t.ref }] }],
    answer: (r) => [r.status, r.body?.data?.[0]?.error?.code ?? r.body?.data?.[0]?.status],
    a: [200, 'forbidden'],
    bc: [200, 'not_found'],
    d: [200, 'not_found'],
  },
  {
    route: 'POST /emails/test with tenant',
    call: (t) => ['POST', '/emails/test', { event: 'email.sent', tenant: t.ref, deliver: false }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: 'POST /domains with tenant',
    call: (t) => ['POST', '/domains', { name: probeDomain(), tenant: t.ref }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  { route: 'GET /domains?tenant=', call: (t) => ['GET', `/domains?tenant=${enc(t.ref)}`], a: FORBIDDEN, bc: NOT_FOUND, d: NOT_FOUND },
  {
    route: 'GET /suppressions?tenant=',
    call: (t) => ['GET', `/suppressions?tenant=${enc(t.ref)}`],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: 'GET /suppressions?email=&tenant=',
    call: (t) => ['GET', `/suppressions?email=${enc(t.suppressed)}&tenant=${enc(t.ref)}`],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: 'POST /suppressions with tenant',
    call: (t) => ['POST', '/suppressions', { email: probeAddress(), tenant: t.ref }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: 'DELETE /suppressions?email=&tenant=',
    call: (t) => ['DELETE', `/suppressions?email=${enc(t.suppressed)}&tenant=${enc(t.ref)}`],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: 'POST /api-keys with tenant',
    call: (t) => ['POST', '/api-keys', { name: 'sneaky', scopes: ['full'], tenant: t.ref }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: 'POST /webhooks with tenants',
    call: (t) => ['POST', '/webhooks', { url: `${stack().info.webhook_inbox_url}${unique('sneaky')}`, tenants: [t.ref] }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: 'PATCH /webhooks/{own} tenants',
    call: (t, c) => ['PATCH', `/webhooks/${c.ownWebhook}`, { tenants: [t.ref] }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  // The tenant's records by id: another tenant's or account's are not found (never 403).
  {
    route: "GET /emails/{id} (the tenant's email)",
    call: (t) => ['GET', `/emails/${t.emailId}`],
    a: NOT_FOUND,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: "POST /emails/{id}/resend (the tenant's email)",
    call: (t) => ['POST', `/emails/${t.emailId}/resend`],
    a: NOT_FOUND,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: "POST /emails/test with the tenant's email_id",
    call: (t) => ['POST', '/emails/test', { event: 'email.delivered', email_id: t.emailId, deliver: false }],
    a: FORBIDDEN,
    bc: NOT_FOUND,
    d: FORBIDDEN,
  },
  {
    route: "GET /domains/{id} (the tenant's domain)",
    call: (t) => ['GET', `/domains/${t.domain.id}`],
    a: NOT_FOUND,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: "PATCH /domains/{id} (the tenant's domain)",
    call: (t) => ['PATCH', `/domains/${t.domain.id}`, { open_tracking: true }],
    a: NOT_FOUND,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
  {
    route: "DELETE /domains/{id} (the tenant's domain)",
    call: (t) => ['DELETE', `/domains/${t.domain.id}`],
    a: NOT_FOUND,
    bc: NOT_FOUND,
    d: NOT_FOUND,
  },
];

interface Furnished {
  tenant: TenantView;
  domain: { id: string; name: string };
  emailId: string;
  suppressed: string;
}

/** A tenant with one of each record: a domain, an email and an address on its list. */
async function furnish(account: TestAccount, tenant: TenantView): Promise<Furnished> {
  const domain = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), tenant: tenant.external_id } });
  expect(domain.status).toBe(201);
  const email = await api('POST', '/emails', {
    key: account.key,
    body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't', tenant: tenant.id },
  });
  expect(email.status).toBe(200);
  const suppressed = `${unique('listed')}@example.com`;
  expect((await api('POST', '/suppressions', { key: account.key, body: { email: suppressed, tenant: tenant.id } })).status).toBe(201);
  return { tenant, domain: { id: domain.body.domain.id, name: domain.body.domain.name }, emailId: email.body.id, suppressed };
}

const targetsOf = (f: Furnished, refs: string[]): Target[] =>
  refs.map((ref) => ({ ref, domain: f.domain, emailId: f.emailId, suppressed: f.suppressed }));

async function expectOk(response: Promise<ApiResponse>, what: string): Promise<any> {
  const answer = await response;
  expect({ what, status: answer.status }).toEqual({ what, status: 200 });
  return answer.body;
}

/** Everything of an account the rows could have changed, read through its full key (and the claims table). */
async function snapshot(account: TestAccount, tenants: Furnished[], addresses: string[]) {
  const key = account.key;
  const state: Record<string, unknown> = {};
  state.tenants = (await expectOk(api('GET', '/tenants?limit=100', { key }), 'GET /tenants')).tenants;
  state.domains = (await expectOk(api('GET', '/domains?limit=100', { key }), 'GET /domains')).domains.map((d: any) => ({
    id: d.id,
    name: d.name,
    tenant: d.tenant,
    open_tracking: d.open_tracking,
  }));
  state.apiKeys = (await expectOk(api('GET', '/api-keys?limit=100', { key }), 'GET /api-keys')).api_keys;
  state.webhooks = (await expectOk(api('GET', '/webhooks?limit=100', { key }), 'GET /webhooks')).webhooks;
  for (const { tenant, emailId } of tenants) {
    state[`tenant ${tenant.id}`] = (await expectOk(api('GET', `/tenants/${tenant.id}`, { key }), 'GET /tenants/{t}')).tenant;
    state[`tenant domains ${tenant.id}`] = (
      await expectOk(api('GET', `/tenants/${tenant.id}/domains?limit=100`, { key }), 'GET /tenants/{t}/domains')
    ).domains.map((d: any) => d.id);
    // Reserved in the accept transaction: any send let through for the tenant shows here at once.
    state[`ramp usage ${tenant.id}`] = (
      await expectOk(api('GET', `/tenants/${tenant.id}/stats`, { key }), 'GET /tenants/{t}/stats')
    ).ramp.used_today;
    state[`email ${emailId}`] = (await expectOk(api('GET', `/emails/${emailId}`, { key }), 'GET /emails/{id}')).email.tenant;
  }
  // Exact lookups (no index) of every address the rows name, on the account list and each tenant's.
  for (const list of [null, ...tenants.map((t) => t.tenant.id)]) {
    for (const address of addresses) {
      const found = await expectOk(
        api('GET', `/suppressions?email=${enc(address)}${list ? `&tenant=${list}` : ''}`, { key }),
        'GET /suppressions?email=',
      );
      state[`suppression ${list ?? 'account'} ${address}`] = found.suppressions.map((s: any) => s.id);
    }
  }
  return state;
}

async function claimOf(name: string) {
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.domainName(name), ConsistentRead: true }))).Item;
}

describe('tenant isolation on every tenant route: between tenants and between accounts', () => {
  let A: TestAccount;
  let B: TestAccount;
  let t1: Furnished;
  let t2: Furnished;
  let u1: Furnished;
  let twin: Furnished;
  let t1Key: string;
  let callers: { t1Key: Caller; A: Caller; B: Caller };

  async function caller(account: TestAccount, key: string): Promise<Caller> {
    const domain = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain() } });
    expect(domain.status).toBe(201);
    const hook = await api('POST', '/webhooks', {
      key: account.key,
      body: { url: `${stack().info.webhook_inbox_url}${unique('iso-hook')}`, events: ['email.sent'] },
    });
    expect(hook.status).toBe(200);
    return { key, email: account.email, ownDomain: domain.body.domain.name, ownWebhook: hook.body.webhook.id };
  }

  beforeAll(async () => {
    [A, B] = await Promise.all([
      newAccount({ plan: 'scale', paymentMethod: true, tenants: true }),
      newAccount({ plan: 'scale', paymentMethod: true, tenants: true }),
    ]);
    t1 = await furnish(A, await createTenant(A, {}, 't1'));
    t2 = await furnish(A, await createTenant(A, {}, 't2'));
    u1 = await furnish(B, await createTenant(B, {}, 'u1'));
    // B's twin has the same external_id as A's t2.
    twin = await furnish(B, await createTenant(B, { external_id: t2.tenant.external_id }));
    const limited = await api('POST', '/api-keys', {
      key: A.key,
      body: { name: 't1 only', scopes: ['full'], tenant: t1.tenant.external_id },
    });
    expect(limited.status).toBe(201);
    t1Key = limited.body.secret;
    callers = { t1Key: await caller(A, t1Key), A: await caller(A, A.key), B: await caller(B, B.key) };
    // The limited key's own domain must not be its tenant's: use an account-wide one of A's.
    callers.t1Key.ownDomain = callers.A.ownDomain;
  });

  it('answers every route with the exact status and code of the tenant rules, and changes nothing', async () => {
    const cases: { name: string; caller: Caller; targets: Target[]; expected: keyof Pick<Row, 'a' | 'bc' | 'd'> }[] = [
      { name: "(a) t1's key on t2", caller: callers.t1Key, targets: targetsOf(t2, [t2.tenant.external_id, t2.tenant.id]), expected: 'a' },
      {
        name: "(b) A's key on B's tenants",
        caller: callers.A,
        targets: [...targetsOf(u1, [u1.tenant.external_id, u1.tenant.id]), ...targetsOf(twin, [twin.tenant.id])],
        expected: 'bc',
      },
      {
        name: "(c) B's key on A's tenants",
        caller: callers.B,
        targets: [...targetsOf(t1, [t1.tenant.external_id, t1.tenant.id]), ...targetsOf(t2, [t2.tenant.id])],
        expected: 'bc',
      },
      {
        name: "(d) t1's key on B's tenant",
        caller: callers.t1Key,
        targets: [...targetsOf(u1, [u1.tenant.external_id, u1.tenant.id]), ...targetsOf(twin, [twin.tenant.id])],
        expected: 'd',
      },
    ];
    const knownAddresses = [t1, t2, u1, twin].map((f) => f.suppressed);
    const before = { A: await snapshot(A, [t1, t2], knownAddresses), B: await snapshot(B, [u1, twin], knownAddresses) };

    const actual: string[] = [];
    const expected: string[] = [];
    for (const c of cases) {
      for (const target of c.targets) {
        for (const row of ROWS) {
          const [method, path, body] = row.call(target, c.caller);
          const response = await api(method, path, { key: c.caller.key, body });
          const [status, code] = row.answer ? row.answer(response) : [response.status, response.body?.error?.code];
          const label = `${c.name} | ${row.route} | ${target.ref}`;
          actual.push(`${label} -> ${status} ${code}`);
          expected.push(`${label} -> ${row[c.expected][0]} ${row[c.expected][1]}`);
        }
      }
    }
    expect(actual).toEqual(expected);

    // Nothing changed: tenants, domains (and their owners), keys, webhooks, lists, usage, emails.
    const addresses = [...knownAddresses, ...probes.addresses];
    const after = { A: await snapshot(A, [t1, t2], addresses), B: await snapshot(B, [u1, twin], addresses) };
    const beforeWithProbes = { A: await withEmptyProbes(before.A, [t1, t2]), B: await withEmptyProbes(before.B, [u1, twin]) };
    expect(after).toEqual(beforeWithProbes);
    for (const name of probes.domains) expect({ name, claim: await claimOf(name) }).toEqual({ name, claim: undefined });
    for (const f of [t1, t2, u1, twin]) expect((await claimOf(f.domain.name))!.tenant_id).toBe(f.tenant.id);
    // The limited key still works for its own tenant (it was not revoked by a DELETE let through).
    expect((await api('GET', `/tenants/${t1.tenant.external_id}`, { key: t1Key })).status).toBe(200);
  });

  it("an external_id used in both accounts always names the caller's own tenant", async () => {
    const shared = t2.tenant.external_id;
    expect(twin.tenant.external_id).toBe(shared);
    expect(twin.tenant.id).not.toBe(t2.tenant.id);
    expect((await api('GET', `/tenants/${shared}`, { key: A.key })).body.tenant.id).toBe(t2.tenant.id);
    expect((await api('GET', `/tenants/${shared}`, { key: B.key })).body.tenant.id).toBe(twin.tenant.id);
    expect((await api('GET', '/tenants?limit=100', { key: A.key })).body.tenants.map((t: TenantView) => t.id).sort()).toEqual(
      [t1.tenant.id, t2.tenant.id].sort(),
    );
    expect((await api('GET', '/tenants?limit=100', { key: B.key })).body.tenants.map((t: TenantView) => t.id).sort()).toEqual(
      [u1.tenant.id, twin.tenant.id].sort(),
    );

    // B changes, lists, gives domains and suppresses by the shared name: only B's twin is touched.
    const patched = await api('PATCH', `/tenants/${shared}`, { key: B.key, body: { name: 'B twin', status: 'paused', reason: 'B only' } });
    expect(patched.body.tenant).toMatchObject({ id: twin.tenant.id, name: 'B twin', status: 'paused' });
    expect((await api('GET', `/tenants/${shared}`, { key: A.key })).body.tenant).toMatchObject({
      id: t2.tenant.id,
      name: shared,
      status: 'active',
    });
    const given = await api('POST', `/tenants/${shared}/domains`, { key: B.key, body: { domain: callers.B.ownDomain } });
    expect(given.status).toBe(200);
    expect((await claimOf(callers.B.ownDomain))!.tenant_id).toBe(twin.tenant.id);
    const byTenant = (account: TestAccount, path: string) =>
      api('GET', path, { key: account.key }).then((r) => r.body.domains.map((d: { id: string }) => d.id).sort());
    expect(await byTenant(A, `/tenants/${shared}/domains`)).toEqual([t2.domain.id]);
    expect(await byTenant(A, `/domains?tenant=${shared}`)).toEqual([t2.domain.id]);
    expect(await byTenant(B, `/tenants/${shared}/domains`)).toEqual([twin.domain.id, given.body.domain.id].sort());
    const address = `${unique('twin')}@example.com`;
    expect((await api('POST', '/suppressions', { key: B.key, body: { email: address, tenant: shared } })).status).toBe(201);
    expect((await api('GET', `/suppressions?email=${enc(address)}&tenant=${shared}`, { key: A.key })).body.suppressions).toEqual([]);
    expect((await api('GET', `/suppressions?email=${enc(twin.suppressed)}&tenant=${shared}`, { key: A.key })).body.suppressions).toEqual(
      [],
    );
    expect((await api('GET', `/suppressions?email=${enc(t2.suppressed)}&tenant=${shared}`, { key: A.key })).body.suppressions).toHaveLength(
      1,
    );
    expect((await api('DELETE', `/suppressions?email=${enc(address)}&tenant=${shared}`, { key: A.key })).status).toBe(404);

    // A sends as the shared name while B's twin is paused: A's own t2 sends, and it is A's t2's email.
    const sent = await api('POST', '/emails', {
      key: A.key,
      body: { from: `a@${SANDBOX}`, to: A.email, subject: 's', text: 't', tenant: shared },
    });
    expect(sent.status).toBe(200);
    expect((await api('GET', `/emails/${sent.body.id}`, { key: A.key })).body.email.tenant).toBe(shared);
    expect((await api('GET', `/emails/${sent.body.id}`, { key: B.key })).status).toBe(404);
    expect(
      (await api('POST', '/emails', { key: B.key, body: { from: `a@${SANDBOX}`, to: B.email, subject: 's', text: 't', tenant: shared } }))
        .status,
    ).toBe(403);
    expect((await api('GET', `/tenants/${shared}/stats`, { key: B.key })).body.ramp.used_today.transactional).toBe(1); // B's twin's own setup email

    // A webhook of B filtered to the shared name never gets A's events (and the reverse).
    const inbox = stack().info.webhook_inbox_url!;
    const paths = { A: unique('twin-a'), B: unique('twin-b') };
    const hookA = await api('POST', '/webhooks', {
      key: A.key,
      body: { url: `${inbox}${paths.A}`, events: ['email.delivered'], tenants: [shared] },
    });
    const hookB = await api('POST', '/webhooks', {
      key: B.key,
      body: { url: `${inbox}${paths.B}`, events: ['email.delivered'], tenants: [shared] },
    });
    expect([hookA.status, hookB.status]).toEqual([200, 200]);
    const fromA = await api('POST', '/emails/test', { key: A.key, body: { event: 'email.delivered', tenant: shared } });
    const fromB = await api('POST', '/emails/test', { key: B.key, body: { event: 'email.delivered', tenant: twin.tenant.id } });
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    const at = async (path: string) =>
      (await inboxRequests(path)).map((r) => ({ id: r.headers['webhook-id'], emailId: JSON.parse(r.body).data.email_id as string }));
    const got = await waitFor(async () => {
      const [a, b] = [await at(paths.A), await at(paths.B)];
      return a.some((e) => e.id === fromA.body.id) && b.some((e) => e.id === fromB.body.id) ? { a, b } : undefined;
    }, 'the test events at both endpoints');
    // Each endpoint has its own account's events only (A's also gets its real email of t2 when it is delivered).
    expect(got.a.filter((e) => e.id === fromB.body.id || e.emailId === twin.emailId)).toEqual([]);
    expect(got.b.filter((e) => e.id === fromA.body.id || e.emailId === sent.body.id || e.emailId === t2.emailId)).toEqual([]);
    // The delivery logs (written when an event is routed) agree.
    const logged = async (account: TestAccount, hookId: string) =>
      (await api('GET', `/webhooks/${hookId}/deliveries?limit=100`, { key: account.key })).body.deliveries as {
        event_id: string;
        payload: { data: { email_id: string } };
      }[];
    expect((await logged(A, hookA.body.webhook.id)).map((d) => d.event_id)).not.toContain(fromB.body.id);
    // B's: its test event, and its twin's own setup email if that delivery was routed after the endpoint existed (a loaded machine).
    const ofB = await logged(B, hookB.body.webhook.id);
    expect(ofB.map((d) => d.event_id)).toContain(fromB.body.id);
    expect(ofB.filter((d) => d.event_id !== fromB.body.id && d.payload.data.email_id !== twin.emailId)).toEqual([]);
  });
});

/** A snapshot taken before the probes existed, with the probes' (empty) lookups added. */
async function withEmptyProbes(state: Record<string, unknown>, tenants: Furnished[]) {
  const out = { ...state };
  for (const list of [null, ...tenants.map((t) => t.tenant.id)])
    for (const address of probes.addresses) out[`suppression ${list ?? 'account'} ${address}`] = [];
  return out;
}
