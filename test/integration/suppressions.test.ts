/** /suppressions over HTTP, plus the repositories the send path will call, against the running local cloud. */
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import {
  findCategoryOptOuts,
  findSuppressedRecipients,
  listCategoryOptOuts,
  recordCategoryOptOut,
  removeCategoryOptOut,
  suppressAddresses,
} from '#shared/usecases/suppressions/suppressions';
import { keys } from '#shared/adapters/store/keys';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createAwsClients } from '#shared/adapters/aws/clients';
import { tableCallsOf } from './harness/table-calls';

const address = (local: string) => `${local}-${Math.random().toString(36).slice(2, 10)}@example.com`;

async function keyWith(owner: TestAccount, scopes: string[]): Promise<string> {
  const created = await api('POST', '/api-keys', { key: owner.key, body: { name: scopes.join(','), scopes } });
  expect(created.status).toBe(201);
  return created.body.secret;
}

function fieldsOf(response: { body: any }): string[] {
  return response.body.error.details.fields.map((f: { field: string }) => f.field);
}

/** Every item of the account's list in the index (what the API lists), straight from DynamoDB. */
async function indexedCount(accountId: string, email?: string): Promise<number> {
  const { services } = stack();
  const table = { client: createAwsClients(services.config).dynamo, name: services.config.tableName };
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await table.client.send(
      new QueryCommand({
        TableName: table.name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.suppressionsByScope(accountId, null) },
        ExclusiveStartKey: start,
      }),
    );
    count += (result.Items ?? []).filter((item) => email === undefined || item.email === email).length;
    start = result.LastEvaluatedKey;
  } while (start);
  return count;
}

describe('/suppressions', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('adds one address (201) and returns the record', async () => {
    const email = address('one');
    const response = await api('POST', '/suppressions', { key: account.key, body: { email } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      suppressions: [
        {
          object: 'suppression',
          id: expect.stringMatching(/^sup_[0-9A-HJKMNP-TV-Z]{26}$/),
          email,
          scope: 'account',
          tenant: null,
          reason: 'manual',
          created_at: expect.any(String),
        },
      ],
      created: [email],
      existing: [],
    });
    expect(new Date(response.body.suppressions[0].created_at).toISOString()).toBe(response.body.suppressions[0].created_at);
    expect(response.text).not.toContain('account_id');
  });

  it('adds many at once, normalising and deduplicating, and says which already existed', async () => {
    const known = address('known');
    const first = await api('POST', '/suppressions', { key: account.key, body: { email: known, reason: 'manual' } });
    const fresh = [address('a'), address('b'), address('c')];
    const response = await api('POST', '/suppressions', {
      key: account.key,
      body: { emails: [fresh[0], known.toUpperCase(), fresh[1], fresh[0]!.toUpperCase(), fresh[2]] },
    });
    expect(response.status).toBe(201);
    expect(response.body.suppressions.map((s: { email: string }) => s.email)).toEqual([fresh[0], known, fresh[1], fresh[2]]);
    expect(response.body.created).toEqual(fresh);
    expect(response.body.existing).toEqual([known]);
    expect(response.body.suppressions[1]).toEqual(first.body.suppressions[0]);
  });

  it('re-adding is not an error: 200, same id, no duplicate', async () => {
    const email = address('again');
    const first = await api('POST', '/suppressions', { key: account.key, body: { email } });
    const again = await api('POST', '/suppressions', { key: account.key, body: { email } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ suppressions: first.body.suppressions, created: [], existing: [email] });
    expect(await indexedCount(account.id, email)).toBe(1);
  });

  it('normalises addresses to lower case everywhere (add, filter, delete)', async () => {
    const local = `Mixed.Case-${Math.random().toString(36).slice(2, 8)}`;
    const mixed = `  ${local}@Example.COM `;
    const lower = `${local.toLowerCase()}@example.com`;
    const added = await api('POST', '/suppressions', { key: account.key, body: { email: mixed } });
    expect(added.body.suppressions[0].email).toBe(lower);
    const again = await api('POST', '/suppressions', { key: account.key, body: { email: lower.toUpperCase() } });
    expect(again.status).toBe(200);
    expect(again.body.suppressions[0].id).toBe(added.body.suppressions[0].id);
    const found = await api('GET', `/suppressions?email=${encodeURIComponent(`${local}@EXAMPLE.com`)}`, { key: account.key });
    expect(found.body.suppressions.map((s: { id: string }) => s.id)).toEqual([added.body.suppressions[0].id]);
    const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(lower.toUpperCase())}`, { key: account.key });
    expect(removed.status).toBe(200);
  });

  describe('validation (400 validation_error naming the fields)', () => {
    const post = (body: unknown) => api('POST', '/suppressions', { key: account.key, body });

    it('refuses bad addresses', async () => {
      const single = await post({ email: 'not an address' });
      expect(single.status).toBe(400);
      expect(single.body.error.code).toBe('validation_error');
      expect(fieldsOf(single)).toEqual(['email']);
      const many = await post({ emails: ['ok@example.com', 'nope', 42] });
      expect(fieldsOf(many)).toEqual(['emails.1', 'emails.2']);
      const empty = await post({ emails: [] });
      expect(fieldsOf(empty)).toEqual(['emails']);
    });

    it('needs exactly one of email and emails', async () => {
      const both = await post({ email: 'a@example.com', emails: ['b@example.com'] });
      expect(both.status).toBe(400);
      expect(fieldsOf(both)).toEqual(['email', 'emails']);
      expect(both.body.error.details.fields[0].message).toMatch(/not both/);
      const neither = await post({ reason: 'manual' });
      expect(neither.status).toBe(400);
      expect(fieldsOf(neither)).toEqual(['email', 'emails']);
      expect(neither.body.error.message).toContain('email, emails');
    });

    it('takes at most 1000 addresses per request, and accepts 1000', async () => {
      const tooMany = await post({ emails: Array.from({ length: 1001 }, (_, i) => `user${i}@example.com`) });
      expect(tooMany.status).toBe(400);
      expect(fieldsOf(tooMany)).toEqual(['emails']);
      expect(tooMany.body.error.details.fields[0].message).toMatch(/1000/);

      const owner = await newAccount();
      const thousand = Array.from({ length: 1000 }, (_, i) => `bulk${i}@example.com`);
      const ok = await api('POST', '/suppressions', { key: owner.key, body: { emails: thousand } });
      expect(ok.status).toBe(201);
      expect(ok.body.created).toHaveLength(1000);
      expect(await indexedCount(owner.id)).toBe(1000);
    });

    it('accepts only reason manual through the API', async () => {
      for (const reason of ['bounce', 'complaint', 'unsubscribe', 'other']) {
        const response = await post({ email: 'a@example.com', reason });
        expect(response.status).toBe(400);
        expect(fieldsOf(response)).toEqual(['reason']);
      }
    });

    it('refuses unknown fields (a misspelt category is not silently turned into a suppression)', async () => {
      const response = await post({ email: 'a@example.com', categroy: 'newsletter' });
      expect(response.status).toBe(400);
      expect(fieldsOf(response)).toEqual(['categroy']);
    });

    it('refuses an empty or non-JSON body', async () => {
      expect(fieldsOf(await api('POST', '/suppressions', { key: account.key, rawBody: '' }))).toEqual(['(body)']);
      expect(fieldsOf(await api('POST', '/suppressions', { key: account.key, rawBody: '{' }))).toEqual(['(body)']);
    });

    it('validates list and delete queries', async () => {
      expect(fieldsOf(await api('GET', '/suppressions?reason=spam', { key: account.key }))).toEqual(['reason']);
      expect(fieldsOf(await api('GET', '/suppressions?limit=101', { key: account.key }))).toEqual(['limit']);
      expect(fieldsOf(await api('GET', '/suppressions?limit=0', { key: account.key }))).toEqual(['limit']);
      expect(fieldsOf(await api('GET', '/suppressions?email=nope', { key: account.key }))).toEqual(['email']);
      expect(fieldsOf(await api('GET', '/suppressions?cursor=garbage', { key: account.key }))).toEqual(['cursor']);
      const noEmail = await api('DELETE', '/suppressions', { key: account.key });
      expect(noEmail.status).toBe(400);
      expect(noEmail.body.error.details.fields).toEqual([{ field: 'email', message: 'email is required' }]);
      expect(fieldsOf(await api('DELETE', '/suppressions?email=bad', { key: account.key }))).toEqual(['email']);
    });
  });

  describe('listing', () => {
    it('paginates newest first with an opaque cursor bound to the account', async () => {
      const owner = await newAccount();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await api('POST', '/suppressions', { key: owner.key, body: { email: `p${i}@example.com` } })).body.suppressions[0].id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: any = await api('GET', `/suppressions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: owner.key });
        expect(page.status).toBe(200);
        expect(page.body.suppressions.length).toBeLessThanOrEqual(2);
        expect(page.body.has_more).toBe(page.body.next_cursor !== null);
        seen.push(...page.body.suppressions.map((s: { id: string }) => s.id));
        cursor = page.body.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...ids].sort().reverse());

      const all = await api('GET', '/suppressions', { key: owner.key });
      expect(all.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(all.body.suppressions).toHaveLength(5);

      const first = await api('GET', '/suppressions?limit=1', { key: owner.key });
      const other = await newAccount();
      const stolen = await api('GET', `/suppressions?cursor=${first.body.next_cursor}`, { key: other.key });
      expect(stolen.status).toBe(400);
      expect(fieldsOf(stolen)).toEqual(['cursor']);
    });

    it('filters by reason across pages (reasons other than manual come from internal callers)', async () => {
      const owner = await newAccount();
      const bounced: string[] = [];
      for (let i = 0; i < 9; i++) {
        const email = `r${i}@example.com`;
        if (i % 3 === 1) {
          const result = await suppressAddresses(stack().services, {
            accountId: owner.id,
            tenantId: null,
            emails: [email],
            reason: 'bounce',
          });
          bounced.push(result.suppressions[0]!.id);
        } else {
          await api('POST', '/suppressions', { key: owner.key, body: { email } });
        }
      }
      await suppressAddresses(stack().services, { accountId: owner.id, tenantId: null, emails: ['c@example.com'], reason: 'complaint' });

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: any = await api('GET', `/suppressions?reason=bounce&limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key: owner.key });
        expect(page.status).toBe(200);
        for (const s of page.body.suppressions) expect(s.reason).toBe('bounce');
        seen.push(...page.body.suppressions.map((s: { id: string }) => s.id));
        cursor = page.body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen).toEqual([...bounced].reverse());

      const complaints = await api('GET', '/suppressions?reason=complaint', { key: owner.key });
      expect(complaints.body.suppressions.map((s: { email: string; reason: string }) => [s.email, s.reason])).toEqual([
        ['c@example.com', 'complaint'],
      ]);
      expect(complaints.body.has_more).toBe(false);
      const manual = await api('GET', '/suppressions?reason=manual&limit=100', { key: owner.key });
      expect(manual.body.suppressions).toHaveLength(6);
      expect((await api('GET', '/suppressions?reason=unsubscribe', { key: owner.key })).body).toEqual({
        suppressions: [],
        has_more: false,
        next_cursor: null,
      });
    });

    it('filters by exact email (with reason too)', async () => {
      const owner = await newAccount();
      await api('POST', '/suppressions', { key: owner.key, body: { emails: ['x@example.com', 'xx@example.com'] } });
      const exact = await api('GET', '/suppressions?email=x@example.com', { key: owner.key });
      expect(exact.body.suppressions.map((s: { email: string }) => s.email)).toEqual(['x@example.com']);
      expect(exact.body).toMatchObject({ has_more: false, next_cursor: null });
      expect((await api('GET', '/suppressions?email=x@example.com&reason=bounce', { key: owner.key })).body.suppressions).toEqual([]);
      expect((await api('GET', '/suppressions?email=x@example.com&reason=manual', { key: owner.key })).body.suppressions).toHaveLength(1);
      expect((await api('GET', '/suppressions?email=nobody@example.com', { key: owner.key })).body.suppressions).toEqual([]);
    });
  });

  describe('removing', () => {
    it('removes and returns the record; then 404; re-adding creates a new record', async () => {
      const email = address('gone');
      const added = await api('POST', '/suppressions', { key: account.key, body: { email } });
      const removed = await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ ok: true, suppression: added.body.suppressions[0] });
      expect((await api('GET', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })).body.suppressions).toEqual([]);

      const again = await api('DELETE', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('not_found');
      expect(again.body.error.message).toContain(email);

      const readded = await api('POST', '/suppressions', { key: account.key, body: { email } });
      expect(readded.status).toBe(201);
      expect(readded.body.suppressions[0].id).not.toBe(added.body.suppressions[0].id);
    });

    it('404 for an address that was never suppressed', async () => {
      const response = await api('DELETE', '/suppressions?email=never@example.com', { key: account.key });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    });

    it('concurrent removes of one address: one 200, the others 404', async () => {
      const email = address('race-delete');
      await api('POST', '/suppressions', { key: account.key, body: { email } });
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => api('DELETE', `/suppressions?email=${encodeURIComponent(email)}`, { key: account.key })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    });
  });

  describe('scopes', () => {
    it('a sending-only key gets 403 insufficient_scope on every endpoint', async () => {
      const key = await keyWith(account, ['emails:send']);
      const responses = [
        await api('GET', '/suppressions', { key }),
        await api('POST', '/suppressions', { key, body: { email: 'a@example.com' } }),
        await api('DELETE', '/suppressions?email=a@example.com', { key }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('insufficient_scope');
        expect(response.body.error.details.key_scopes).toEqual(['emails:send']);
      }
      expect(responses[0]!.body.error.details.required_scopes).toEqual(['full', 'mail:admin', 'suppressions:write', 'account:read']);
      expect(responses[1]!.body.error.details.required_scopes).toEqual(['full', 'mail:admin', 'suppressions:write']);
      expect(responses[2]!.body.error.details.required_scopes).toEqual(['full', 'mail:admin', 'suppressions:write']);
    });

    it('account:read can list but not add or remove', async () => {
      const key = await keyWith(account, ['account:read']);
      expect((await api('GET', '/suppressions', { key })).status).toBe(200);
      const add = await api('POST', '/suppressions', { key, body: { email: 'a@example.com' } });
      expect(add.status).toBe(403);
      expect(add.body.error.code).toBe('insufficient_scope');
      expect((await api('DELETE', '/suppressions?email=a@example.com', { key })).status).toBe(403);
    });

    it('suppressions:write can do all three', async () => {
      const key = await keyWith(account, ['suppressions:write']);
      const email = address('writer');
      expect((await api('POST', '/suppressions', { key, body: { email } })).status).toBe(201);
      expect((await api('GET', `/suppressions?email=${email}`, { key })).body.suppressions).toHaveLength(1);
      expect((await api('DELETE', `/suppressions?email=${email}`, { key })).status).toBe(200);
    });

    it('checks the scope before the body (no validation details leak to a key without the scope)', async () => {
      const key = await keyWith(account, ['emails:send']);
      const response = await api('POST', '/suppressions', { key, body: { nonsense: true } });
      expect(response.status).toBe(403);
    });

    it('401 without a key', async () => {
      expect((await api('GET', '/suppressions')).status).toBe(401);
    });
  });

  describe('tenants', () => {
    it('naming a tenant on an account without tenants is 403 tenants_not_enabled on every endpoint', async () => {
      const responses = [
        await api('GET', '/suppressions?tenant=customer-1', { key: account.key }),
        await api('POST', '/suppressions', { key: account.key, body: { email: 'a@example.com', tenant: 'customer-1' } }),
        await api('DELETE', '/suppressions?email=a@example.com&tenant=customer-1', { key: account.key }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('tenants_not_enabled');
      }
      // Nothing was written on the account-wide list either.
      expect((await api('GET', '/suppressions?email=a@example.com', { key: account.key })).body.suppressions).toEqual([]);
    });

    it('with tenants enabled, an unknown tenant is 404 not_found (no tenant can exist yet)', async () => {
      const owner = await newAccount({ plan: 'scale', tenants: true });
      const responses = [
        await api('GET', '/suppressions?tenant=customer-1', { key: owner.key }),
        await api('POST', '/suppressions', { key: owner.key, body: { email: 'a@example.com', tenant: 'customer-1' } }),
        await api('DELETE', '/suppressions?email=a@example.com&tenant=customer-1', { key: owner.key }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('not_found');
      }
    });

    it('validates the tenant parameter first', async () => {
      expect(fieldsOf(await api('GET', '/suppressions?tenant=', { key: account.key }))).toEqual(['tenant']);
      expect(
        fieldsOf(await api('POST', '/suppressions', { key: account.key, body: { email: 'a@example.com', tenant: 'x'.repeat(129) } })),
      ).toEqual(['tenant']);
    });
  });

  it('isolates accounts: lists, lookups, deletes and records are per account', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const email = address('shared');
    const inA = await api('POST', '/suppressions', { key: a.key, body: { email } });
    expect((await api('GET', '/suppressions', { key: b.key })).body.suppressions).toEqual([]);
    expect((await api('GET', `/suppressions?email=${email}`, { key: b.key })).body.suppressions).toEqual([]);
    expect((await api('DELETE', `/suppressions?email=${email}`, { key: b.key })).status).toBe(404);
    const inB = await api('POST', '/suppressions', { key: b.key, body: { email } });
    expect(inB.status).toBe(201);
    expect(inB.body.suppressions[0].id).not.toBe(inA.body.suppressions[0].id);
    expect((await api('GET', `/suppressions?email=${email}`, { key: a.key })).body.suppressions).toEqual(inA.body.suppressions);
    expect(await findSuppressedRecipients(stack().services, b.id, null, [email])).toEqual([email]);
    await api('DELETE', `/suppressions?email=${email}`, { key: b.key });
    expect(await findSuppressedRecipients(stack().services, a.id, null, [email])).toEqual([email]);
    expect(await findSuppressedRecipients(stack().services, b.id, null, [email])).toEqual([]);
  });

  describe('concurrency', () => {
    it('many concurrent adds of one address: one record, every response OK, all with its id', async () => {
      const owner = await newAccount();
      const email = 'race@example.com';
      const responses = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          api('POST', '/suppressions', { key: owner.key, body: { email: i % 2 ? email.toUpperCase() : email } }),
        ),
      );
      for (const response of responses) expect([200, 201]).toContain(response.status);
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(new Set(responses.map((r) => r.body.suppressions[0].id)).size).toBe(1);
      expect(responses.reduce((n, r) => n + r.body.created.length, 0)).toBe(1);
      expect(await indexedCount(owner.id)).toBe(1);
      const list = await api('GET', '/suppressions', { key: owner.key });
      expect(list.body.suppressions.map((s: { id: string }) => s.id)).toEqual([responses[0]!.body.suppressions[0].id]);
    });

    it('overlapping concurrent batches create each address exactly once', async () => {
      const owner = await newAccount();
      const pool = Array.from({ length: 30 }, (_, i) => `o${i}@example.com`);
      const batches = Array.from({ length: 8 }, (_, b) => pool.filter((_, i) => (i + b) % 3 !== 0));
      const responses = await Promise.all(batches.map((emails) => api('POST', '/suppressions', { key: owner.key, body: { emails } })));
      for (const response of responses) expect([200, 201]).toContain(response.status);
      const created = responses.flatMap((r) => r.body.created as string[]);
      expect(created.sort()).toEqual([...pool].sort());
      expect(await indexedCount(owner.id)).toBe(30);
    });
  });
});

/** A bounce record of the account-wide list, as a repository takes it (`n` makes its id). */
function bounceRecord(accountId: string, email: string, n: number) {
  return {
    id: `sup_${String(n).padStart(26, '0')}`,
    account_id: accountId,
    email,
    scope: 'account' as const,
    tenant: null,
    reason: 'bounce' as const,
    created_at: new Date().toISOString(),
  };
}

describe('send-path lookups (repositories through the use cases, real DynamoDB)', () => {
  it('findSuppressed checks the account-wide list, plus the tenant list for tenant email', async () => {
    const { services } = stack();
    const owner = await newAccount();
    await suppressAddresses(services, { accountId: owner.id, tenantId: null, emails: ['Global@Example.com'], reason: 'complaint' });
    const tenantAdd = await suppressAddresses(services, {
      accountId: owner.id,
      tenantId: 'tenant-a',
      emails: ['tenant-only@example.com'],
      reason: 'bounce',
    });
    expect(tenantAdd.suppressions[0]).toMatchObject({
      scope: 'tenant',
      tenant: 'tenant-a',
      reason: 'bounce',
      email: 'tenant-only@example.com',
    });

    const recipients = ['global@example.com', 'GLOBAL@example.com', 'tenant-only@example.com', 'clean@example.com', 'global@example.com'];
    expect(await findSuppressedRecipients(services, owner.id, null, recipients)).toEqual(['global@example.com', 'GLOBAL@example.com']);
    expect(await findSuppressedRecipients(services, owner.id, 'tenant-a', recipients)).toEqual([
      'global@example.com',
      'GLOBAL@example.com',
      'tenant-only@example.com',
    ]);
    expect(await findSuppressedRecipients(services, owner.id, 'tenant-b', recipients)).toEqual([
      'global@example.com',
      'GLOBAL@example.com',
    ]);
    expect(await findSuppressedRecipients(services, owner.id, null, [])).toEqual([]);

    // The tenant's list is its own list: the account-wide listing does not show it.
    const listed = await api('GET', '/suppressions', { key: owner.key });
    expect(listed.body.suppressions.map((s: { email: string }) => s.email)).toEqual(['global@example.com']);
  });

  it('tenant ids cannot forge another list key', async () => {
    const { services } = stack();
    const owner = await newAccount();
    await suppressAddresses(services, { accountId: owner.id, tenantId: 'a#CATEGORY', emails: ['x@example.com'], reason: 'bounce' });
    expect(await findSuppressedRecipients(services, owner.id, 'a', ['x@example.com'])).toEqual([]);
    expect(await findSuppressedRecipients(services, owner.id, 'a#CATEGORY', ['x@example.com'])).toEqual(['x@example.com']);
  });

  it('findSuppressed handles more than 100 keys (several BatchGetItem chunks)', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const emails = Array.from({ length: 260 }, (_, i) => `many${i}@example.com`);
    const suppressed = emails.filter((_, i) => i % 7 === 0);
    const tenantSuppressed = emails.filter((_, i) => i % 11 === 0 && i % 7 !== 0);
    await suppressAddresses(services, { accountId: owner.id, tenantId: null, emails: suppressed, reason: 'bounce' });
    await suppressAddresses(services, { accountId: owner.id, tenantId: 't', emails: tenantSuppressed, reason: 'bounce' });
    // 260 addresses x 2 lists = 520 keys = 6 chunks.
    expect(await findSuppressedRecipients(services, owner.id, 't', emails)).toEqual(
      emails.filter((e) => suppressed.includes(e) || tenantSuppressed.includes(e)),
    );
    expect(await findSuppressedRecipients(services, owner.id, null, emails)).toEqual(suppressed);
  });

  it('addMany: 100 records a transaction, refused ones answered with the record there, results in order', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const emails = Array.from({ length: 230 }, (_, i) => `batch${i}@example.com`);
    const earlier = emails.filter((_, i) => i % 9 === 0);
    await suppressAddresses(services, { accountId: owner.id, tenantId: null, emails: earlier, reason: 'complaint' });
    expect(await services.suppressions.addMany([])).toEqual([]);
    // One address given twice: added once, its second result not created.
    const given = [...emails, emails[5]!].map((email, n) => bounceRecord(owner.id, email, n));
    let results: Awaited<ReturnType<typeof services.suppressions.addMany>> = [];
    const calls = await tableCallsOf(async () => {
      results = await services.suppressions.addMany(given);
    });
    // 230 distinct addresses: 3 transactions, and each one refused for earlier addresses sent once more without them.
    expect(calls.every((name) => name === 'TransactWriteCommand')).toBe(true);
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(6);
    expect(results.map((r) => r.suppression.email)).toEqual(given.map((g) => g.email));
    expect(results.map((r) => r.created)).toEqual(given.map((g, i) => !earlier.includes(g.email) && i < emails.length));
    // An address that was there keeps its record (reason and id unchanged).
    for (const [i, result] of results.entries()) {
      if (earlier.includes(given[i]!.email)) expect(result.suppression).toMatchObject({ reason: 'complaint', email: given[i]!.email });
    }
    expect(results.at(-1)!.suppression).toEqual(results[5]!.suppression);
    expect(await indexedCount(owner.id)).toBe(230);
    // Racing the same records: every address still has one record, and none is created twice.
    const again = await Promise.all([services.suppressions.addMany(given), services.suppressions.addMany([...given].reverse())]);
    expect(again.flat().filter((r) => r.created)).toHaveLength(0);
    expect(await indexedCount(owner.id)).toBe(230);
  });

  it('one address (a bounce, a complaint) is one conditional PutItem, not a transaction (half the write units)', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const calls = await tableCallsOf(async () => {
      const added = await suppressAddresses(services, {
        accountId: owner.id,
        tenantId: null,
        emails: ['Once@Example.com', 'once@example.com'],
        reason: 'bounce',
      });
      expect(added.created).toEqual(['once@example.com']);
    });
    expect(calls).toEqual(['PutCommand']);
  });

  it('addMany racing itself on new addresses: each address created exactly once', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const pool = Array.from({ length: 150 }, (_, i) => `race${i}@example.com`);
    const records = (offset: number) =>
      pool.filter((_, i) => (i + offset) % 4 !== 0).map((email, n) => bounceRecord(owner.id, email, offset * 1000 + n));
    const runs = await Promise.all([0, 1, 2, 3].map((offset) => services.suppressions.addMany(records(offset))));
    const created = runs
      .flat()
      .filter((r) => r.created)
      .map((r) => r.suppression.email);
    expect(created.sort()).toEqual([...pool].sort());
    expect(await indexedCount(owner.id)).toBe(150);
  });

  it('category opt-outs addMany: 100 a transaction, the one there kept, one given twice added once, results in order', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const there = await recordCategoryOptOut(services, {
      accountId: owner.id,
      tenantId: null,
      email: 'optout7@example.com',
      category: 'product',
    });
    const at = new Date().toISOString();
    const given = [...Array.from({ length: 150 }, (_, i) => `OptOut${i}@example.com`), 'optout3@example.com'].map((email) => ({
      account_id: owner.id,
      tenant: null,
      email,
      category: 'product' as const,
      created_at: at,
    }));
    let results: Awaited<ReturnType<typeof services.categoryOptOuts.addMany>> = [];
    const calls = await tableCallsOf(async () => {
      results = await services.categoryOptOuts.addMany(given);
    });
    // 150 distinct addresses: 2 transactions, the first sent once more without the address already there.
    expect(calls).toEqual(['TransactWriteCommand', 'TransactWriteCommand', 'TransactWriteCommand']);
    expect(results.map((r) => r.optOut.email)).toEqual(given.map((g) => g.email.toLowerCase()));
    expect(results.map((r) => r.created)).toEqual(given.map((g, i) => g.email !== 'OptOut7@example.com' && i < 150));
    expect(results[7]!.optOut).toEqual(there.optOut);
    expect(results.at(-1)!.optOut).toEqual(results[3]!.optOut);
    expect(await findCategoryOptOuts(services, owner.id, null, ['optout149@example.com', 'optout150@example.com'], 'product')).toEqual([
      'optout149@example.com',
    ]);
  });

  it('category opt-outs: stored apart, idempotent, per category and list, removable', async () => {
    const { services } = stack();
    const owner = await newAccount();
    const first = await recordCategoryOptOut(services, {
      accountId: owner.id,
      tenantId: null,
      email: 'Reader@Example.com',
      category: 'newsletter',
    });
    expect(first.created).toBe(true);
    expect(first.optOut).toMatchObject({ account_id: owner.id, tenant: null, email: 'reader@example.com', category: 'newsletter' });
    const again = await Promise.all(
      [1, 2, 3].map(() =>
        recordCategoryOptOut(services, { accountId: owner.id, tenantId: null, email: 'reader@example.com', category: 'newsletter' }),
      ),
    );
    expect(again.map((r) => r.created)).toEqual([false, false, false]);
    expect(again[0]!.optOut).toEqual(first.optOut);
    await recordCategoryOptOut(services, { accountId: owner.id, tenantId: 'tenant-a', email: 'reader@example.com', category: 'product' });
    await recordCategoryOptOut(services, { accountId: owner.id, tenantId: 'tenant-a', email: 'other@example.com', category: 'newsletter' });

    expect(
      (await listCategoryOptOuts(services, { accountId: owner.id, tenantId: null, email: 'READER@example.com' })).map((o) => o.category),
    ).toEqual(['newsletter']);
    expect(
      (await listCategoryOptOuts(services, { accountId: owner.id, tenantId: 'tenant-a', email: 'reader@example.com' })).map(
        (o) => o.category,
      ),
    ).toEqual(['product']);

    const recipients = ['reader@example.com', 'other@example.com', 'nobody@example.com'];
    expect(await findCategoryOptOuts(services, owner.id, null, recipients, 'newsletter')).toEqual(['reader@example.com']);
    expect(await findCategoryOptOuts(services, owner.id, null, recipients, 'product')).toEqual([]);
    expect(await findCategoryOptOuts(services, owner.id, 'tenant-a', recipients, 'newsletter')).toEqual([
      'reader@example.com',
      'other@example.com',
    ]);
    expect(await findCategoryOptOuts(services, owner.id, 'tenant-a', recipients, 'product')).toEqual(['reader@example.com']);

    // An opt-out is not a suppression: other mail still goes out, and the suppression list does not show it.
    expect(await findSuppressedRecipients(services, owner.id, 'tenant-a', recipients)).toEqual([]);
    expect((await api('GET', '/suppressions', { key: owner.key })).body.suppressions).toEqual([]);

    expect(
      await removeCategoryOptOut(services, { accountId: owner.id, tenantId: null, email: 'reader@example.com', category: 'newsletter' }),
    ).toBe(true);
    expect(
      await removeCategoryOptOut(services, { accountId: owner.id, tenantId: null, email: 'reader@example.com', category: 'newsletter' }),
    ).toBe(false);
    expect(await findCategoryOptOuts(services, owner.id, null, recipients, 'newsletter')).toEqual([]);
    expect(await findCategoryOptOuts(services, owner.id, 'tenant-a', recipients, 'newsletter')).toEqual(['other@example.com']);
  });
});
