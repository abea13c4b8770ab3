/**
 * Category opt-outs through /suppressions against the local cloud: POST with `category` (instead of a
 * suppression), GET ?category= (one category of one list, paginated like the suppressions listing),
 * GET ?email= (the address's suppression and opt-outs), DELETE ?email=&category= (re-subscribe); the
 * send path's answer (product/newsletter refused with 422 and the spec's details, transactional never),
 * tenants' lists, scopes, the 400s, and racing identical adds.
 */
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { listCategoryOptOuts } from '#shared/usecases/suppressions/suppressions';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { verifiedDomain } from './harness/domains';
import { documentClient } from './harness/usage';
import { createTenant, unique, type TenantView } from './harness/tenants';
import { unlessProbeFailed } from '../support/wait';

const address = (name: string) => `${unique(name)}@example.com`;
const COP_ID = /^cop_[0-9A-HJKMNP-TV-Z]{26}$/;

function fieldsOf(response: { body: any }): string[] {
  return response.body.error.details.fields.map((f: { field: string }) => f.field);
}

async function keyWith(owner: TestAccount, body: Record<string, unknown>): Promise<string> {
  const created = await api('POST', '/api-keys', { key: owner.key, body: { name: 'k', ...body } });
  expect(created.status).toBe(201);
  return created.body.secret;
}

/** The ids a category listing shows (read through an index: waits until it holds `count`). */
async function listedIds(key: string, query: string, count: number): Promise<string[]> {
  let ids: string[] = [];
  await waitFor(
    async () => {
      const response = await api('GET', `/suppressions?limit=100&${query}`, { key });
      expect(response.status).toBe(200);
      ids = response.body.category_opt_outs.map((o: { id: string }) => o.id);
      return ids.length === count;
    },
    `${query} to list ${count}`,
    5000,
  ).catch(unlessProbeFailed);
  return ids;
}

/** Items of one opt-out index partition, straight from DynamoDB. */
async function indexed(partition: string): Promise<Record<string, any>[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: stack().info.env.TABLE_NAME!,
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': partition },
    }),
  );
  return result.Items ?? [];
}

describe('category opt-outs through /suppressions', () => {
  let account: TestAccount;
  let acme: TenantView;
  let globex: TenantView;
  let domain: string;
  const send = (body: Record<string, unknown>) =>
    api('POST', '/emails', { key: account.key, body: { from: `hi@${domain}`, subject: 's', text: 't', ...body } });

  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    acme = await createTenant(account, {}, 'acme');
    globex = await createTenant(account, {}, 'globex');
    domain = (await verifiedDomain(account)).name;
  });

  it('POST with a category records opt-outs (201), not suppressions; re-adding is 200 with the same record', async () => {
    const email = address('reader');
    const added = await api('POST', '/suppressions', {
      key: account.key,
      body: { email: `  ${email.toUpperCase()} `, category: 'product' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      category_opt_outs: [
        {
          object: 'category_opt_out',
          id: expect.stringMatching(COP_ID),
          email,
          category: 'product',
          tenant: null,
          created_at: expect.any(String),
        },
      ],
      created: [email],
      existing: [],
    });
    expect(new Date(added.body.category_opt_outs[0].created_at).toISOString()).toBe(added.body.category_opt_outs[0].created_at);
    expect(added.text).not.toContain('account_id');

    const again = await api('POST', '/suppressions', {
      key: account.key,
      body: { emails: [email, address('fresh')], category: 'product' },
    });
    expect(again.status).toBe(201);
    expect(again.body.category_opt_outs[0]).toEqual(added.body.category_opt_outs[0]);
    expect(again.body.existing).toEqual([email]);
    const only = await api('POST', '/suppressions', { key: account.key, body: { email, category: 'product' } });
    expect(only.status).toBe(200);
    expect(only.body).toEqual({ category_opt_outs: added.body.category_opt_outs, created: [], existing: [email] });

    // The address is not suppressed; the lookup by address shows the opt-out beside the (empty) suppression.
    const lookup = await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key });
    expect(lookup.body).toEqual({ suppressions: [], category_opt_outs: added.body.category_opt_outs, has_more: false, next_cursor: null });
    const suppressed = await api('POST', '/suppressions', { key: account.key, body: { email } });
    expect(suppressed.status).toBe(201);
    const both = await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key });
    expect(both.body.suppressions).toEqual(suppressed.body.suppressions);
    expect(both.body.category_opt_outs).toEqual(added.body.category_opt_outs);
    // Removing the suppression leaves the opt-out.
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })).status).toBe(200);
    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })).body.category_opt_outs,
    ).toHaveLength(1);
  });

  it("a product opt-out refuses product mail (422, the spec's details), not newsletter or transactional mail; DELETE re-subscribes", async () => {
    const to = address('product');
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: to, category: 'product' } })).status).toBe(201);

    const product = await send({ to, category: 'product' });
    expect(product.status).toBe(422);
    expect(product.body.error).toMatchObject({
      code: 'validation_error',
      details: { category_unsubscribed: [to], category: 'product', email_id: expect.stringMatching(/^msg_/) },
    });
    expect((await api('GET', `/emails/${product.body.error.details.email_id}`, { key: account.key })).body.email).toMatchObject({
      status: 'failed',
      last_event: 'suppressed',
    });
    expect((await send({ to, category: 'newsletter' })).status).toBe(200);
    expect((await send({ to })).status).toBe(200);
    expect((await send({ to, category: 'transactional' })).status).toBe(200);

    const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(to.toUpperCase())}&category=product`, {
      key: account.key,
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      ok: true,
      category_opt_out: expect.objectContaining({ object: 'category_opt_out', email: to, category: 'product', tenant: null }),
    });
    const again = await api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=product`, { key: account.key });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('not_found');
    expect(again.body.error.message).toContain(to);
    // Another category's DELETE is its own record: none there.
    expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=newsletter`, { key: account.key })).status).toBe(
      404,
    );

    expect((await send({ to, category: 'product' })).status).toBe(200);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(to)}`, { key: account.key })).body.category_opt_outs).toEqual([]);
    // Opting out again makes a new record; racing removals of it: one 200, the others 404.
    const readded = await api('POST', '/suppressions', { key: account.key, body: { email: to, category: 'product' } });
    expect(readded.status).toBe(201);
    expect(readded.body.category_opt_outs[0].id).not.toBe(removed.body.category_opt_out.id);
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() => api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=product`, { key: account.key })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
  });

  it('a newsletter opt-out refuses newsletter mail only', async () => {
    const to = address('news');
    expect((await api('POST', '/suppressions', { key: account.key, body: { email: to, category: 'newsletter' } })).status).toBe(201);
    const refused = await send({ to, category: 'newsletter' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toMatchObject({ category_unsubscribed: [to], category: 'newsletter' });
    expect((await send({ to, category: 'product' })).status).toBe(200);
    expect((await send({ to })).status).toBe(200);
  });

  it('lists one category of one list, newest first, with limit/cursor/has_more/next_cursor like the suppressions listing', async () => {
    const owner = await newAccount();
    const products = Array.from({ length: 7 }, (_, i) => address(`p${i}`));
    const ids: string[] = [];
    for (const email of products) {
      ids.push((await api('POST', '/suppressions', { key: owner.key, body: { email, category: 'product' } })).body.category_opt_outs[0].id);
    }
    await api('POST', '/suppressions', { key: owner.key, body: { emails: [address('n0'), products[0]], category: 'newsletter' } });
    await api('POST', '/suppressions', { key: owner.key, body: { email: address('suppressed') } });
    expect(await listedIds(owner.key, 'category=product', 7)).toHaveLength(7);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let firstCursor: string | null = null;
    do {
      const page: any = await api('GET', `/suppressions?category=product&limit=3${cursor ? `&cursor=${cursor}` : ''}`, { key: owner.key });
      expect(page.status).toBe(200);
      expect(Object.keys(page.body).sort()).toEqual(['category_opt_outs', 'has_more', 'next_cursor']);
      expect(page.body.category_opt_outs.length).toBeLessThanOrEqual(3);
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      for (const optOut of page.body.category_opt_outs)
        expect(optOut).toMatchObject({ object: 'category_opt_out', category: 'product', tenant: null });
      seen.push(...page.body.category_opt_outs.map((o: { id: string }) => o.id));
      cursor = page.body.next_cursor;
      firstCursor ??= cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].sort().reverse());

    const newsletter = await api('GET', '/suppressions?category=newsletter', { key: owner.key });
    expect(newsletter.body.category_opt_outs.map((o: { category: string }) => o.category)).toEqual(['newsletter', 'newsletter']);
    expect(newsletter.body).toMatchObject({ has_more: false, next_cursor: null });
    // The suppression listing is unchanged: suppressions only.
    const plain = await api('GET', '/suppressions', { key: owner.key });
    expect(Object.keys(plain.body).sort()).toEqual(['has_more', 'next_cursor', 'suppressions']);
    expect(plain.body.suppressions).toHaveLength(1);

    // An exact lookup within the category.
    const exact = await api('GET', `/suppressions?category=newsletter&email=${encodeURIComponent(products[0]!)}`, { key: owner.key });
    expect(exact.body).toEqual({
      category_opt_outs: [expect.objectContaining({ email: products[0], category: 'newsletter' })],
      has_more: false,
      next_cursor: null,
    });
    expect(
      (await api('GET', `/suppressions?category=newsletter&email=${encodeURIComponent(products[1]!)}`, { key: owner.key })).body
        .category_opt_outs,
    ).toEqual([]);

    // A cursor belongs to one category of one list of one account.
    await api('POST', '/suppressions', { key: owner.key, body: { email: address('second') } });
    const suppressionCursor = await waitFor(
      async () => (await api('GET', '/suppressions?limit=1', { key: owner.key })).body.next_cursor as string | null,
      'a second page of suppressions',
      5000,
    );
    for (const [query, key] of [
      [`category=newsletter&cursor=${firstCursor}`, owner.key],
      [`cursor=${firstCursor}`, owner.key],
      [`category=product&cursor=${firstCursor}`, (await newAccount()).key],
      [`category=product&cursor=${suppressionCursor}`, owner.key],
    ] as [string, string][]) {
      const response = await api('GET', `/suppressions?${query}`, { key });
      expect({ query, status: response.status, fields: fieldsOf(response) }).toEqual({ query, status: 400, fields: ['cursor'] });
    }
  });

  describe('tenants', () => {
    it("a tenant's opt-out refuses that tenant's product mail only, not another tenant's or the account's", async () => {
      const to = address('tenant-reader');
      const added = await api('POST', '/suppressions', {
        key: account.key,
        body: { email: to, category: 'product', tenant: acme.external_id },
      });
      expect(added.status).toBe(201);
      expect(added.body.category_opt_outs[0]).toMatchObject({ email: to, category: 'product', tenant: acme.external_id });
      // Named by id: the same list.
      const byId = await api('POST', '/suppressions', { key: account.key, body: { email: to, category: 'product', tenant: acme.id } });
      expect(byId.status).toBe(200);
      expect(byId.body.category_opt_outs[0].id).toBe(added.body.category_opt_outs[0].id);

      const refused = await send({ to, category: 'product', tenant: acme.external_id });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toMatchObject({
        category_unsubscribed: [to],
        category: 'product',
        email_id: expect.stringMatching(/^msg_/),
      });
      expect((await send({ to, category: 'product', tenant: globex.external_id })).status).toBe(200);
      expect((await send({ to, category: 'product' })).status).toBe(200);
      expect((await send({ to, category: 'newsletter', tenant: acme.external_id })).status).toBe(200);
      expect((await send({ to, tenant: acme.external_id })).status).toBe(200);

      expect(await listedIds(account.key, `category=product&tenant=${acme.external_id}`, 1)).toEqual([added.body.category_opt_outs[0].id]);
      const accountWide = await api('GET', '/suppressions?category=product&limit=100', { key: account.key });
      expect(accountWide.body.category_opt_outs.map((o: { email: string }) => o.email)).not.toContain(to);
      expect(
        (await api('GET', `/suppressions?category=product&tenant=${globex.external_id}`, { key: account.key })).body.category_opt_outs,
      ).toEqual([]);
      expect(
        (await api('GET', `/suppressions?email=${encodeURIComponent(to)}&tenant=${acme.id}`, { key: account.key })).body.category_opt_outs,
      ).toEqual(added.body.category_opt_outs);
      expect((await api('GET', `/suppressions?email=${encodeURIComponent(to)}`, { key: account.key })).body.category_opt_outs).toEqual([]);

      // Removing from another list is 404 and leaves this one.
      expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=product`, { key: account.key })).status).toBe(
        404,
      );
      expect(
        (await api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=product&tenant=${globex.id}`, { key: account.key }))
          .status,
      ).toBe(404);
      const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(to)}&category=product&tenant=${acme.external_id}`, {
        key: account.key,
      });
      expect(removed.body).toEqual({ ok: true, category_opt_out: added.body.category_opt_outs[0] });
      expect((await send({ to, category: 'product', tenant: acme.external_id })).status).toBe(200);
    });

    it("an account-wide opt-out refuses every tenant's mail of that category", async () => {
      const to = address('wide');
      expect((await api('POST', '/suppressions', { key: account.key, body: { email: to, category: 'newsletter' } })).status).toBe(201);
      for (const tenant of [acme.external_id, globex.id]) {
        const refused = await send({ to, category: 'newsletter', tenant });
        expect({ tenant, status: refused.status, category: refused.body.error?.details?.category }).toEqual({
          tenant,
          status: 422,
          category: 'newsletter',
        });
      }
    });

    it("a key limited to a tenant manages its own tenant's opt-outs, also without naming it, and no other list", async () => {
      const key = await keyWith(account, { scopes: ['full'], tenant: acme.external_id });
      const mine = address('mine');
      const added = await api('POST', '/suppressions', { key, body: { email: mine, category: 'newsletter' } });
      expect(added.status).toBe(201);
      expect(added.body.category_opt_outs[0]).toMatchObject({ tenant: acme.external_id });
      expect((await api('GET', `/suppressions?email=${encodeURIComponent(mine)}`, { key: account.key })).body.category_opt_outs).toEqual(
        [],
      );
      expect(await listedIds(key, 'category=newsletter', 1)).toEqual([added.body.category_opt_outs[0].id]);
      for (const [method, path, body] of [
        ['GET', `/suppressions?category=newsletter&tenant=${globex.external_id}`],
        ['POST', '/suppressions', { email: mine, category: 'newsletter', tenant: globex.id }],
        ['DELETE', `/suppressions?email=${encodeURIComponent(mine)}&category=newsletter&tenant=${globex.external_id}`],
      ] as [string, string, unknown?][]) {
        const response = await api(method, path, { key, body });
        expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
          method,
          path,
          status: 403,
          code: 'forbidden',
        });
      }
      expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(mine)}&category=newsletter`, { key })).status).toBe(200);
    });

    it('a category with a tenant on an account without tenants is 403 tenants_not_enabled', async () => {
      const plain = await newAccount();
      const responses = [
        await api('POST', '/suppressions', { key: plain.key, body: { email: 'a@example.com', category: 'product', tenant: 'customer-1' } }),
        await api('GET', '/suppressions?category=product&tenant=customer-1', { key: plain.key }),
        await api('DELETE', '/suppressions?email=a@example.com&category=product&tenant=customer-1', { key: plain.key }),
      ];
      for (const response of responses)
        expect({ status: response.status, code: response.body.error.code }).toEqual({ status: 403, code: 'tenants_not_enabled' });
    });

    it('deleting a tenant deletes its opt-outs of every category', async () => {
      const doomed = await createTenant(account, {}, 'doomed');
      const emails = [address('d1'), address('d2')];
      for (const category of ['product', 'newsletter']) {
        expect(
          (await api('POST', '/suppressions', { key: account.key, body: { emails, category, tenant: doomed.external_id } })).status,
        ).toBe(201);
      }
      const kept = address('kept');
      await api('POST', '/suppressions', { key: account.key, body: { email: kept, category: 'product', tenant: globex.external_id } });
      expect((await api('DELETE', `/tenants/${doomed.external_id}`, { key: account.key })).status).toBe(200);
      const { services } = stack();
      for (const email of emails)
        expect(await listCategoryOptOuts(services, { accountId: account.id, tenantId: doomed.id, email })).toEqual([]);
      for (const category of ['product', 'newsletter'] as const)
        expect(await indexed(keys.optOutsByCategory(account.id, doomed.id, category))).toEqual([]);
      expect(await listCategoryOptOuts(services, { accountId: account.id, tenantId: globex.id, email: kept })).toHaveLength(1);
    });
  });

  describe('scopes: as the suppression endpoints', () => {
    it('a sending-only key gets 403 insufficient_scope; account:read can list; suppressions:write can do all three', async () => {
      const email = address('scoped');
      const sender = await keyWith(account, { scopes: ['emails:send'] });
      for (const [method, path, body] of [
        ['POST', '/suppressions', { email, category: 'product' }],
        ['GET', '/suppressions?category=product'],
        ['DELETE', `/suppressions?email=${encodeURIComponent(email)}&category=product`],
      ] as [string, string, unknown?][]) {
        const response = await api(method, path, { key: sender, body });
        expect({ method, status: response.status, code: response.body.error?.code }).toEqual({
          method,
          status: 403,
          code: 'insufficient_scope',
        });
      }

      const reader = await keyWith(account, { scopes: ['account:read'] });
      expect((await api('GET', '/suppressions?category=product', { key: reader })).status).toBe(200);
      expect((await api('POST', '/suppressions', { key: reader, body: { email, category: 'product' } })).status).toBe(403);
      expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}&category=product`, { key: reader })).status).toBe(403);

      const writer = await keyWith(account, { scopes: ['suppressions:write'] });
      expect((await api('POST', '/suppressions', { key: writer, body: { email, category: 'product' } })).status).toBe(201);
      expect(
        (await api('GET', `/suppressions?category=product&email=${encodeURIComponent(email)}`, { key: writer })).body.category_opt_outs,
      ).toHaveLength(1);
      expect((await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}&category=product`, { key: writer })).status).toBe(200);
    });
  });

  describe('400 validation_error', () => {
    const post = (body: unknown) => api('POST', '/suppressions', { key: account.key, body });

    it('refuses category transactional, explaining that transactional mail has no opt-out', async () => {
      const email = address('t');
      for (const response of [
        await post({ email, category: 'transactional' }),
        await api('GET', '/suppressions?category=transactional', { key: account.key }),
        await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}&category=transactional`, { key: account.key }),
      ]) {
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('validation_error');
        expect(response.body.error.details.fields).toEqual([
          { field: 'category', message: expect.stringMatching(/transactional mail has no category opt-out.*suppress/) },
        ]);
      }
      // Nothing was written: neither an opt-out nor a suppression.
      expect((await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })).body).toMatchObject({
        suppressions: [],
        category_opt_outs: [],
      });
    });

    it('refuses an unknown category', async () => {
      for (const category of ['marketing', 'PRODUCT', '', 7]) {
        const response = await post({ email: address('u'), category });
        expect({ category, status: response.status, fields: fieldsOf(response) }).toEqual({ category, status: 400, fields: ['category'] });
      }
      expect(fieldsOf(await api('GET', '/suppressions?category=marketing', { key: account.key }))).toEqual(['category']);
    });

    it('refuses a reason together with a category', async () => {
      const response = await post({ email: address('r'), category: 'product', reason: 'manual' });
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual(['reason']);
      expect(response.body.error.details.fields[0].message).toMatch(/no reason/);
      expect(fieldsOf(await api('GET', '/suppressions?category=product&reason=manual', { key: account.key }))).toEqual(['reason']);
    });

    it('still refuses unknown fields, and the email/emails rules apply', async () => {
      expect(fieldsOf(await post({ email: address('x'), categories: ['product'] }))).toEqual(['categories']);
      expect(fieldsOf(await post({ category: 'product' }))).toEqual(['email', 'emails']);
      expect(fieldsOf(await post({ emails: ['ok@example.com', 'nope'], category: 'product' }))).toEqual(['emails.1']);
    });
  });

  it("opt-outs recorded before they had ids or an account-wide index read with a stable id and can be removed; a tenant's are deleted with it", async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const tenant = await createTenant(owner, {}, 'legacy');
    const email = address('legacy');
    const created_at = '2026-01-02T03:04:05.678Z';
    const table = stack().info.env.TABLE_NAME!;
    // The items as the store wrote them before: no id; an account's without GSI1, a tenant's in the older partition.
    await documentClient().send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.categoryOptOut(owner.id, email, null, 'product'),
          type: 'category_opt_out',
          account_id: owner.id,
          tenant: null,
          email,
          category: 'product',
          created_at,
        },
      }),
    );
    await documentClient().send(
      new PutCommand({
        TableName: table,
        Item: {
          ...keys.categoryOptOut(owner.id, email, tenant.id, 'newsletter'),
          GSI1PK: keys.optOutsByTenant(owner.id, tenant.id),
          GSI1SK: `${email}#newsletter`,
          type: 'category_opt_out',
          account_id: owner.id,
          tenant: tenant.id,
          email,
          category: 'newsletter',
          created_at,
        },
      }),
    );

    const first = await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: owner.key });
    expect(first.body.category_opt_outs).toEqual([
      { object: 'category_opt_out', id: expect.stringMatching(COP_ID), email, category: 'product', tenant: null, created_at },
    ]);
    expect((await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: owner.key })).body.category_opt_outs).toEqual(
      first.body.category_opt_outs,
    );
    // Re-adding finds it (the same record).
    expect((await api('POST', '/suppressions', { key: owner.key, body: { email, category: 'product' } })).body).toEqual({
      category_opt_outs: first.body.category_opt_outs,
      created: [],
      existing: [email],
    });
    const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}&category=product`, { key: owner.key });
    expect(removed.body).toEqual({ ok: true, category_opt_out: first.body.category_opt_outs[0] });

    expect(
      (await api('GET', `/suppressions?email=${encodeURIComponent(email)}&tenant=${tenant.id}`, { key: owner.key })).body.category_opt_outs,
    ).toEqual([expect.objectContaining({ id: expect.stringMatching(COP_ID), category: 'newsletter', tenant: tenant.external_id })]);
    expect((await api('DELETE', `/tenants/${tenant.external_id}`, { key: owner.key })).status).toBe(200);
    expect(await listCategoryOptOuts(stack().services, { accountId: owner.id, tenantId: tenant.id, email })).toEqual([]);
  });

  it('racing identical POSTs create one opt-out: one 201, the others 200, all with its id', async () => {
    const owner = await newAccount();
    const email = address('race');
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api('POST', '/suppressions', { key: owner.key, body: { email: i % 2 ? email.toUpperCase() : email, category: 'product' } }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.category_opt_outs[0].id)).size).toBe(1);
    expect(responses.reduce((n, r) => n + r.body.created.length, 0)).toBe(1);
    expect(await indexed(keys.optOutsByCategory(owner.id, null, 'product'))).toHaveLength(1);
    expect(await listedIds(owner.key, 'category=product', 1)).toEqual([responses[0]!.body.category_opt_outs[0].id]);
  });
});
