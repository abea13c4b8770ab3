/**
 * Suppression lists per tenant against the local cloud: the tenant's list apart from the account-wide
 * one and from other tenants' (add, list, remove; tenant named by external_id or id), the public
 * `tenant` field (external_id), keys limited to a tenant (their own list only, also without naming it;
 * never the account-wide list), and accounts apart.
 */
import { api, newAccount, waitFor, type TestAccount } from './harness/stack';
import { unlessProbeFailed } from '../support/wait';
import { unique, createTenant, type TenantView } from './harness/tenants';

const address = (name: string) => `${unique(name)}@example.com`;

/** The list's addresses (the list is read through an index: wait until it shows `expected`). */
async function listed(key: string, query: string, expected: string[]): Promise<string[]> {
  let last: string[] = [];
  await waitFor(
    async () => {
      const response = await api('GET', `/suppressions?limit=100${query}`, { key });
      expect(response.status).toBe(200);
      last = response.body.suppressions.map((s: { email: string }) => s.email).sort();
      return JSON.stringify(last) === JSON.stringify([...expected].sort());
    },
    `list ${query} to be ${expected.join(',')}`,
    5000,
  ).catch(unlessProbeFailed);
  return last;
}

describe('suppressions per tenant', () => {
  let account: TestAccount;
  let acme: TenantView;
  let globex: TenantView;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = await createTenant(account, {}, 'acme');
    globex = await createTenant(account, {}, 'globex');
  });

  it("keeps a tenant's list apart from the account-wide list and other tenants'; records show the tenant's external_id", async () => {
    const onAcme = address('acme');
    const onAccount = address('account');
    const added = await api('POST', '/suppressions', { key: account.key, body: { email: onAcme, tenant: acme.external_id } });
    expect(added.status).toBe(201);
    expect(added.body.suppressions[0]).toEqual({
      object: 'suppression',
      id: expect.stringMatching(/^sup_/),
      email: onAcme,
      scope: 'tenant',
      tenant: acme.external_id,
      reason: 'manual',
      created_at: expect.any(String),
    });
    // Named by id: the same list (already there).
    const again = await api('POST', '/suppressions', { key: account.key, body: { email: onAcme, tenant: acme.id } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      existing: [onAcme],
      suppressions: [{ id: added.body.suppressions[0].id, tenant: acme.external_id }],
    });
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: onAccount } })).body.suppressions[0]).toMatchObject({
      scope: 'account',
      tenant: null,
    });

    expect(await listed(account.key, `&tenant=${acme.external_id}`, [onAcme])).toEqual([onAcme]);
    expect(await listed(account.key, `&tenant=${acme.id}`, [onAcme])).toEqual([onAcme]);
    const page = await api('GET', `/suppressions?tenant=${acme.id}`, { key: account.key });
    expect(page.body.suppressions.every((s: { tenant: string }) => s.tenant === acme.external_id)).toBe(true);
    expect(await listed(account.key, `&tenant=${globex.external_id}`, [])).toEqual([]);
    const accountList = await listed(account.key, '', [onAccount]);
    expect(accountList).toContain(onAccount);
    expect(accountList).not.toContain(onAcme);

    const lookup = await api('GET', `/suppressions?email=${encodeURIComponent(onAcme)}&tenant=${acme.external_id}`, { key: account.key });
    expect(lookup.body.suppressions).toEqual([expect.objectContaining({ email: onAcme, tenant: acme.external_id })]);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(onAcme)}`, { key: account.key })).body.suppressions).toEqual([]);

    // Removing from another list is 404 and leaves this one alone.
    expect(
      (await api('DELETE', `/suppressions?email=${encodeURIComponent(onAcme)}&tenant=${globex.external_id}`, { key: account.key })).status,
    ).toBe(404);
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(onAcme)}`, { key: account.key })).status).toBe(404);
    const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(onAcme)}&tenant=${acme.id}`, { key: account.key });
    expect(removed.status).toBe(200);
    expect(removed.body.suppression).toMatchObject({ email: onAcme, scope: 'tenant', tenant: acme.external_id });
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(onAcme)}&tenant=${acme.id}`, { key: account.key })).status).toBe(
      404,
    );
  });

  it('the same address can be on the account list and several tenant lists, each removed on its own', async () => {
    const email = address('shared');
    for (const tenant of [undefined, acme.external_id, globex.external_id]) {
      expect((await api('POST', '/suppressions', { key: account.key, body: { email, ...(tenant ? { tenant } : {}) } })).status).toBe(201);
    }
    expect(
      (await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}&tenant=${acme.external_id}`, { key: account.key })).status,
    ).toBe(200);
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(email)}&tenant=${globex.external_id}`, { key: account.key })).body
        .suppressions,
    ).toHaveLength(1);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })).body.suppressions).toHaveLength(1);
  });

  it('a key limited to a tenant acts on its own list, also without naming it, and never on the account-wide list', async () => {
    const keyResponse = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'acme', scopes: ['full'], tenant: acme.external_id },
    });
    const key = keyResponse.body.secret as string;
    const mine = address('mine');
    const accountWide = address('wide');
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: accountWide } })).status).toBe(201);

    const added = await api('POST', '/suppressions', { key, body: { email: mine } });
    expect(added.status).toBe(201);
    expect(added.body.suppressions[0]).toMatchObject({ scope: 'tenant', tenant: acme.external_id });
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(mine)}&tenant=${acme.external_id}`, { key: account.key })).body
        .suppressions,
    ).toHaveLength(1);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(mine)}`, { key: account.key })).body.suppressions).toHaveLength(0);

    expect(await listed(key, '', [mine])).toContain(mine);
    const ownList = await api('GET', '/suppressions?limit=100', { key });
    expect(ownList.body.suppressions.every((s: { tenant: string }) => s.tenant === acme.external_id)).toBe(true);
    expect(ownList.body.suppressions.map((s: { email: string }) => s.email)).not.toContain(accountWide);
    // The account-wide entry of the same address is not reachable: DELETE without tenant is its own list.
    expect((await api('POST', '/suppressions', { key, body: { email: accountWide } })).body.suppressions[0]).toMatchObject({
      scope: 'tenant',
    });
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(accountWide)}`, { key })).body.suppression).toMatchObject({
      scope: 'tenant',
    });
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(accountWide)}`, { key })).status).toBe(404);
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(accountWide)}`, { key: account.key })).body.suppressions,
    ).toHaveLength(1);

    const forbidden: [string, string, unknown?][] = [
      ['GET', `/suppressions?tenant=${globex.external_id}`],
      ['POST', '/suppressions', { email: mine, tenant: globex.id }],
      ['DELETE', `/suppressions?email=${encodeURIComponent(mine)}&tenant=${globex.external_id}`],
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
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(mine)}&tenant=${acme.id}`, { key })).status).toBe(200);
  });

  it("keeps accounts apart: another account's tenant is 404 on every suppression route", async () => {
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const email = address('x');
    await api('POST', '/suppressions', { key: account.key, body: { email, tenant: acme.external_id } });
    for (const [method, path, body] of [
      ['GET', `/suppressions?tenant=${acme.id}`],
      ['GET', `/suppressions?tenant=${acme.external_id}`],
      ['POST', '/suppressions', { email, tenant: acme.id }],
      ['DELETE', `/suppressions?email=${encodeURIComponent(email)}&tenant=${acme.id}`],
    ] as [string, string, unknown?][]) {
      const response = await api(method, path, { key: other.key, body });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
    }
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(email)}&tenant=${acme.id}`, { key: account.key })).body.suppressions,
    ).toHaveLength(1);
  });
});
