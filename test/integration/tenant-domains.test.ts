/**
 * Domains per tenant against the local cloud: POST /domains with tenant, giving an account domain to a
 * tenant (by name or id; idempotent; 409 for another tenant's; racing tenants: one wins), listing
 * (GET /tenants/{t}/domains and GET /domains?tenant=), returning a domain to the account; the name
 * claim's `tenant_id` (what the send path reads) kept with each change; keys limited to a tenant; and
 * isolation between tenants and accounts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';

import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { uniqueDomain } from './harness/dns';
import { documentClient } from './harness/usage';
import { createTenant, type TenantView } from './harness/tenants';

const tenantDomainKey = keys.tenantDomain;

const tableName = () => stack().info.env.TABLE_NAME!;

async function tenantKey(account: TestAccount, tenant: TenantView): Promise<string> {
  const response = await api('POST', '/api-keys', {
    key: account.key,
    body: { name: 'tenant key', scopes: ['full'], tenant: tenant.external_id },
  });
  expect(response.status).toBe(201);
  return response.body.secret;
}

async function addDomain(key: string, body: Record<string, unknown> = {}) {
  const response = await api('POST', '/domains', { key, body: { name: uniqueDomain(), ...body } });
  expect(response.status).toBe(201);
  return response.body.domain as { id: string; name: string; tenant: string | null };
}

async function claimOf(name: string) {
  return (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.domainName(name), ConsistentRead: true }))).Item;
}

async function membership(tenantId: string, domainId: string) {
  return (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: tenantDomainKey(tenantId, domainId), ConsistentRead: true }))
  ).Item;
}

const names = (list: { name: string }[]) => list.map((d) => d.name).sort();

describe('domains per tenant', () => {
  let account: TestAccount;
  let acme: TenantView;
  let globex: TenantView;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = await createTenant(account, {}, 'acme');
    globex = await createTenant(account, {}, 'globex');
  });

  it('POST /domains with tenant: owned by that tenant from the start, the claim carries the tenant id', async () => {
    const domain = await addDomain(account.key, { tenant: acme.external_id });
    expect(domain.tenant).toBe(acme.external_id);
    expect(await claimOf(domain.name)).toMatchObject({ domain_id: domain.id, tenant_id: acme.id });
    const byId = await addDomain(account.key, { tenant: globex.id });
    expect(byId.tenant).toBe(globex.external_id);
    expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.tenant).toBe(acme.external_id);

    const plain = await addDomain(account.key);
    expect(plain.tenant).toBeNull();
    expect((await claimOf(plain.name))!.tenant_id).toBeUndefined();

    for (const tenant of ['nobody', 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV']) {
      const missing = await api('POST', '/domains', { key: account.key, body: { name: uniqueDomain(), tenant } });
      expect({ tenant, status: missing.status, code: missing.body.error?.code }).toEqual({ tenant, status: 404, code: 'not_found' });
    }
  });

  it("lists a tenant's domains at GET /tenants/{t}/domains and GET /domains?tenant= (external_id or id), paginated", async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const one = await createTenant(owner);
    const two = await createTenant(owner);
    const ones = [
      await addDomain(owner.key, { tenant: one.external_id }),
      await addDomain(owner.key, { tenant: one.external_id }),
      await addDomain(owner.key, { tenant: one.external_id }),
    ];
    const twos = [await addDomain(owner.key, { tenant: two.external_id })];
    const shared = await addDomain(owner.key);

    for (const path of [
      `/tenants/${one.external_id}/domains`,
      `/tenants/${one.id}/domains`,
      `/domains?tenant=${one.external_id}`,
      `/domains?tenant=${one.id}`,
    ]) {
      const list = await api('GET', path, { key: owner.key });
      expect({ path, status: list.status }).toEqual({ path, status: 200 });
      expect(list.body.domains.map((d: { id: string }) => d.id)).toEqual([...ones].reverse().map((d) => d.id));
      expect(list.body.has_more).toBe(false);
      expect(
        list.body.domains.every((d: { tenant: string; object: string }) => d.tenant === one.external_id && d.object === 'domain'),
      ).toBe(true);
    }
    expect(names((await api('GET', `/tenants/${two.external_id}/domains`, { key: owner.key })).body.domains)).toEqual(names(twos));
    // The account's listing holds every domain.
    expect(names((await api('GET', '/domains?limit=100', { key: owner.key })).body.domains)).toEqual(names([...ones, ...twos, shared]));

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api(
        'GET',
        `/tenants/${one.external_id}/domains?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: owner.key },
      );
      expect(page.status).toBe(200);
      expect(page.body.domains.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.domains.map((d: { id: string }) => d.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ones].reverse().map((d) => d.id));
    // A cursor of one tenant's list does not read another's.
    const first = await api('GET', `/tenants/${one.external_id}/domains?limit=1`, { key: owner.key });
    const foreign = await api('GET', `/tenants/${two.external_id}/domains?cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      key: owner.key,
    });
    expect(foreign.status).toBe(400);
  });

  it('gives an account domain to a tenant by name or id (idempotent), 409 for another tenant, and returns it to the account', async () => {
    const domain = await addDomain(account.key);
    const given = await api('POST', `/tenants/${acme.external_id}/domains`, {
      key: account.key,
      body: { domain: domain.name.toUpperCase() },
    });
    expect(given.status).toBe(200);
    expect(given.body.domain).toMatchObject({ id: domain.id, name: domain.name, tenant: acme.external_id });
    expect(await claimOf(domain.name)).toMatchObject({ tenant_id: acme.id, domain_id: domain.id });
    expect(await membership(acme.id, domain.id)).toMatchObject(tenantDomainKey(acme.id, domain.id));

    const again = await api('POST', `/tenants/${acme.id}/domains`, { key: account.key, body: { domain: domain.id } });
    expect(again.status).toBe(200);
    expect(again.body.domain.tenant).toBe(acme.external_id);

    const taken = await api('POST', `/tenants/${globex.external_id}/domains`, { key: account.key, body: { domain: domain.name } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'conflict', details: { domain: domain.name, tenant: acme.external_id } });
    expect((await claimOf(domain.name))!.tenant_id).toBe(acme.id);

    // Returning it: only from its own tenant.
    expect((await api('DELETE', `/tenants/${globex.external_id}/domains/${domain.name}`, { key: account.key })).status).toBe(404);
    const returned = await api('DELETE', `/tenants/${acme.external_id}/domains/${domain.name}`, { key: account.key });
    expect(returned.status).toBe(200);
    expect(returned.body.domain).toMatchObject({ id: domain.id, tenant: null });
    expect((await claimOf(domain.name))!.tenant_id).toBeUndefined();
    expect(await membership(acme.id, domain.id)).toBeUndefined();
    expect((await api('GET', `/domains/${domain.id}`, { key: account.key })).body.domain.tenant).toBeNull();
    expect((await api('DELETE', `/tenants/${acme.external_id}/domains/${domain.id}`, { key: account.key })).status).toBe(404);

    // Free again: another tenant can take it.
    expect(
      (await api('POST', `/tenants/${globex.external_id}/domains`, { key: account.key, body: { domain: domain.id } })).body.domain.tenant,
    ).toBe(globex.external_id);
  });

  it('refuses bad input and unknown names with 400/404 (never 500)', async () => {
    const domain = await addDomain(account.key);
    const cases: [string, string, unknown, number][] = [
      ['POST', `/tenants/${acme.external_id}/domains`, {}, 400],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: '' }, 400],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: 42 }, 400],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: domain.name, extra: 1 }, 400],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: 'x'.repeat(300) }, 400],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: 'unknown.example-mail.test' }, 404],
      ['POST', `/tenants/${acme.external_id}/domains`, { domain: 'dom_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, 404],
      ['POST', '/tenants/nobody/domains', { domain: domain.name }, 404],
      ['GET', '/tenants/nobody/domains', undefined, 404],
      ['DELETE', `/tenants/nobody/domains/${domain.name}`, undefined, 404],
      ['DELETE', `/tenants/${acme.external_id}/domains/unknown.example-mail.test`, undefined, 404],
      ['GET', `/tenants/${acme.external_id}/domains?limit=0`, undefined, 400],
      ['GET', `/tenants/${acme.external_id}/domains?cursor=garbage`, undefined, 400],
    ];
    for (const [method, path, body, status] of cases) {
      const response = await api(method, path, { key: account.key, body });
      expect({ method, path, body, status: response.status }).toEqual({ method, path, body, status });
      expect(response.body.error.code).toBe(status === 400 ? 'validation_error' : 'not_found');
    }
  });

  it('two tenants racing for one domain: exactly one wins, and the claim names the winner', async () => {
    const contenders = [
      await createTenant(account, {}, 'r1'),
      await createTenant(account, {}, 'r2'),
      await createTenant(account, {}, 'r3'),
    ];
    for (let round = 0; round < 3; round++) {
      const domain = await addDomain(account.key);
      const answers = await Promise.all(
        contenders.flatMap((tenant) =>
          [0, 1].map(() =>
            api('POST', `/tenants/${tenant.external_id}/domains`, { key: account.key, body: { domain: domain.name } }).then((r) => ({
              tenant,
              r,
            })),
          ),
        ),
      );
      const winners = new Set(answers.filter(({ r }) => r.status === 200).map(({ tenant }) => tenant.id));
      expect(winners.size).toBe(1);
      const winner = contenders.find((t) => winners.has(t.id))!;
      expect(answers.filter(({ r }) => r.status !== 200).every(({ r }) => r.status === 409)).toBe(true);
      expect((await claimOf(domain.name))!.tenant_id).toBe(winner.id);
      for (const tenant of contenders) {
        expect(!!(await membership(tenant.id, domain.id))).toBe(tenant.id === winner.id);
      }
    }
  });

  it("a key limited to a tenant sees and manages only its tenant's domains", async () => {
    const mine = await createTenant(account, {}, 'mine');
    const theirs = await createTenant(account, {}, 'theirs');
    const key = await tenantKey(account, mine);
    const accountWide = await addDomain(account.key);
    const theirsDomain = await addDomain(account.key, { tenant: theirs.external_id });

    // Created without naming a tenant: the key's own tenant owns it.
    const own = await addDomain(key);
    expect(own.tenant).toBe(mine.external_id);
    expect((await claimOf(own.name))!.tenant_id).toBe(mine.id);
    const named = await addDomain(key, { tenant: mine.id });
    expect(named.tenant).toBe(mine.external_id);

    const listed = await api('GET', '/domains?limit=100', { key });
    expect(names(listed.body.domains)).toEqual(names([own, named]));
    expect(names((await api('GET', `/tenants/${mine.external_id}/domains`, { key })).body.domains)).toEqual(names([own, named]));
    expect((await api('GET', `/domains/${own.id}`, { key })).status).toBe(200);
    expect((await api('PATCH', `/domains/${own.id}`, { key, body: { open_tracking: true } })).body.domain.open_tracking).toBe(true);

    for (const other of [accountWide, theirsDomain]) {
      for (const [method, body] of [['GET'], ['PATCH', { open_tracking: true }], ['DELETE'], ['POST', { action: 'verify' }]] as [
        string,
        unknown?,
      ][]) {
        const response = await api(method, `/domains/${other.id}`, { key, body });
        expect({ method, id: other.id, status: response.status }).toEqual({ method, id: other.id, status: 404 });
      }
    }
    expect((await api('GET', `/domains/${accountWide.id}`, { key: account.key })).body.domain.open_tracking).toBe(false);

    const forbidden: [string, string, unknown?][] = [
      ['GET', `/domains?tenant=${theirs.external_id}`],
      ['POST', '/domains', { name: uniqueDomain(), tenant: theirs.external_id }],
      ['GET', `/tenants/${theirs.external_id}/domains`],
      // Moving domains between the account and tenants is the account's decision.
      ['POST', `/tenants/${mine.external_id}/domains`, { domain: accountWide.name }],
      ['POST', `/tenants/${theirs.external_id}/domains`, { domain: own.name }],
      ['DELETE', `/tenants/${mine.external_id}/domains/${own.name}`],
    ];
    for (const [method, path, body] of forbidden) {
      const response = await api(method, path, { key, body });
      expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'forbidden',
      });
    }
    expect((await claimOf(accountWide.name))!.tenant_id).toBeUndefined();

    // It may delete its own domain: the claim and the membership go with it.
    expect((await api('DELETE', `/domains/${named.id}`, { key })).status).toBe(200);
    expect(await claimOf(named.name)).toBeUndefined();
    expect(await membership(mine.id, named.id)).toBeUndefined();
    expect(names((await api('GET', `/tenants/${mine.external_id}/domains`, { key: account.key })).body.domains)).toEqual([own.name]);
  });

  it('deleting a tenant domain through the account key removes its membership too', async () => {
    const domain = await addDomain(account.key, { tenant: acme.external_id });
    expect((await api('DELETE', `/domains/${domain.id}`, { key: account.key })).status).toBe(200);
    expect(await membership(acme.id, domain.id)).toBeUndefined();
    expect(
      (await api('GET', `/tenants/${acme.external_id}/domains?limit=100`, { key: account.key })).body.domains.map(
        (d: { id: string }) => d.id,
      ),
    ).not.toContain(domain.id);
  });

  it('keeps accounts apart: another account can neither see nor take a domain or a tenant', async () => {
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const otherTenant = await createTenant(other);
    const domain = await addDomain(account.key);
    const tenantDomain = await addDomain(account.key, { tenant: acme.external_id });
    expect(
      (await api('POST', `/tenants/${otherTenant.external_id}/domains`, { key: other.key, body: { domain: domain.name } })).status,
    ).toBe(404);
    expect((await api('POST', `/tenants/${otherTenant.external_id}/domains`, { key: other.key, body: { domain: domain.id } })).status).toBe(
      404,
    );
    expect((await api('GET', `/tenants/${acme.id}/domains`, { key: other.key })).status).toBe(404);
    expect((await api('GET', `/domains?tenant=${acme.id}`, { key: other.key })).status).toBe(404);
    expect((await api('DELETE', `/tenants/${acme.id}/domains/${tenantDomain.id}`, { key: other.key })).status).toBe(404);
    expect((await api('POST', `/tenants/${acme.id}/domains`, { key: other.key, body: { domain: domain.name } })).status).toBe(404);
    expect((await claimOf(domain.name))!.tenant_id).toBeUndefined();
    expect((await api('GET', `/tenants/${otherTenant.external_id}/domains`, { key: other.key })).body.domains).toEqual([]);
  });
});
