/** The tenants group against the local cloud: create, read, list, change, delete, limits and isolation. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '#shared/adapters/store/keys';
import { TENANT_COUNTER } from '#shared/adapters/store/tenants';
import { PLANS } from '#shared/domain/accounts/plans';
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { documentClient } from './harness/usage';
import { unique } from './harness/tenants';

const tableName = () => stack().info.env.TABLE_NAME!;

const SANDBOX = 'sandbox.mailservice.dev';

async function setCounter(accountId: string, count: number): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(accountId, TENANT_COUNTER),
      UpdateExpression: 'SET #c = :c',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':c': count },
    }),
  );
}

describe('/tenants', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
  });

  it('creates a tenant with every field of the spec and the documented defaults', async () => {
    const external = unique('acme');
    const created = await api('POST', '/tenants', { key: account.key, body: { external_id: external } });
    expect(created.status).toBe(201);
    expect(created.body.tenant).toEqual({
      id: expect.stringMatching(/^ten_[0-9A-Z]{26}$/),
      object: 'tenant',
      external_id: external,
      name: external,
      status: 'active',
      paused_reason: null,
      paused_at: null,
      pause_source: null,
      default_from_domain: null,
      stream_policy: 'all',
      daily_limit: null,
      metadata: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const full = await api('POST', '/tenants', {
      key: account.key,
      body: {
        external_id: `${external}.full:x@y_z`,
        name: 'Acme Inc',
        default_from_domain: 'Mail.Acme.test',
        stream_policy: 'transactional_only',
        daily_limit: 500,
        metadata: { plan: 'gold', seats: 3 },
      },
    });
    expect(full.status).toBe(201);
    expect(full.body.tenant).toMatchObject({
      name: 'Acme Inc',
      default_from_domain: 'mail.acme.test',
      stream_policy: 'transactional_only',
      daily_limit: 500,
      metadata: { plan: 'gold', seats: 3 },
    });
  });

  it('refuses bad input with 400 validation_error naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'external_id'],
      [{ external_id: '' }, 'external_id'],
      [{ external_id: 'has space' }, 'external_id'],
      [{ external_id: 'a#b' }, 'external_id'],
      [{ external_id: 'x'.repeat(129) }, 'external_id'],
      [{ external_id: 'ok', stream_policy: 'bulk' }, 'stream_policy'],
      [{ external_id: 'ok', daily_limit: 0 }, 'daily_limit'],
      [{ external_id: 'ok', daily_limit: 1.5 }, 'daily_limit'],
      [{ external_id: 'ok', metadata: { blob: 'x'.repeat(4100) } }, 'metadata'],
      [{ external_id: 'ok', metadata: [1, 2] }, 'metadata'],
      [{ external_id: 'ok', default_from_domain: 'not a domain' }, 'default_from_domain'],
      [{ external_id: 'ok', surprise: true }, 'surprise'],
    ];
    for (const [body, field] of cases) {
      const response = await api('POST', '/tenants', { key: account.key, body });
      expect({ body, status: response.status, code: response.body.error?.code }).toEqual({ body, status: 400, code: 'validation_error' });
      expect(JSON.stringify(response.body.error.details.fields)).toContain(field);
    }
    expect((await api('POST', '/tenants', { key: account.key, body: { external_id: 'x'.repeat(128) } })).status).toBe(201);
  });

  it('takes metadata of exactly 4 KB (4096 bytes of JSON text in UTF-8) on POST and PATCH, and refuses one byte more with 400 naming metadata', async () => {
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');
    // '{"blob":"' + 4085 x + '"}' = 4096 bytes; 'é' is 2 bytes in UTF-8 (2044 x 2 + '{"b":"' + '"}' = 4096).
    const atLimit = [{ blob: 'x'.repeat(4085) }, { b: 'é'.repeat(2044) }];
    const overLimit = [{ blob: 'x'.repeat(4086) }, { b: `${'é'.repeat(2044)}x` }];
    expect(atLimit.map(bytes)).toEqual([4096, 4096]);
    expect(overLimit.map(bytes)).toEqual([4097, 4097]);
    expect(JSON.stringify(overLimit[1]).length).toBeLessThan(4096); // counted in bytes, not characters

    const expectRefused = (response: { status: number; body: any }, what: unknown) => {
      expect({ what, status: response.status, code: response.body.error?.code }).toEqual({ what, status: 400, code: 'validation_error' });
      expect(response.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['metadata']);
    };
    for (const metadata of atLimit) {
      const created = await api('POST', '/tenants', { key: account.key, body: { external_id: unique('meta'), metadata } });
      expect(created.status).toBe(201);
      expect(created.body.tenant.metadata).toEqual(metadata);
      expect((await api('GET', `/tenants/${created.body.tenant.id}`, { key: account.key })).body.tenant.metadata).toEqual(metadata);
    }
    for (const metadata of overLimit) {
      const external = unique('meta-over');
      expectRefused(await api('POST', '/tenants', { key: account.key, body: { external_id: external, metadata } }), metadata);
      expect((await api('GET', `/tenants/${external}`, { key: account.key })).status).toBe(404);
    }

    const tenant = (
      await api('POST', '/tenants', { key: account.key, body: { external_id: unique('meta-patch'), metadata: { small: true } } })
    ).body.tenant;
    for (const metadata of atLimit) {
      const patched = await api('PATCH', `/tenants/${tenant.id}`, { key: account.key, body: { metadata } });
      expect(patched.status).toBe(200);
      expect(patched.body.tenant.metadata).toEqual(metadata);
    }
    const before = (await api('GET', `/tenants/${tenant.id}`, { key: account.key })).body.tenant;
    for (const metadata of overLimit)
      expectRefused(await api('PATCH', `/tenants/${tenant.id}`, { key: account.key, body: { metadata } }), metadata);
    expect((await api('GET', `/tenants/${tenant.id}`, { key: account.key })).body.tenant).toEqual(before);
  });

  it('answers 409 for an existing external_id, and exactly one of concurrent creates wins', async () => {
    const external = unique('dup');
    expect((await api('POST', '/tenants', { key: account.key, body: { external_id: external } })).status).toBe(201);
    const again = await api('POST', '/tenants', { key: account.key, body: { external_id: external } });
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual({ external_id: external });

    const raced = unique('race');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => api('POST', '/tenants', { key: account.key, body: { external_id: raced } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const list = await api('GET', '/tenants?limit=100', { key: account.key });
    expect(list.body.tenants.filter((t: { external_id: string }) => t.external_id === raced)).toHaveLength(1);
  });

  it('enforces the plan tenant limit atomically: at the edge exactly the remaining places succeed', async () => {
    const edge = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const limit = PLANS.scale.tenants;
    await setCounter(edge.id, limit - 2);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api('POST', '/tenants', { key: edge.key, body: { external_id: `edge-${i}` } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    const refused = answers.filter((a) => a.status === 403);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.body.error).toMatchObject({ code: 'plan_limit', details: { tenant_limit: limit } });
    // Deleting one frees its place.
    const created = answers.find((a) => a.status === 201)!.body.tenant;
    expect((await api('DELETE', `/tenants/${created.external_id}`, { key: edge.key })).status).toBe(200);
    expect((await api('POST', '/tenants', { key: edge.key, body: { external_id: 'edge-again' } })).status).toBe(201);

    const pro = await newAccount({ plan: 'pro', paymentMethod: true, tenants: true });
    const none = await api('POST', '/tenants', { key: pro.key, body: { external_id: 'x' } });
    expect(none.status).toBe(403);
    expect(none.body.error).toMatchObject({ code: 'plan_limit', details: { tenant_limit: 0 } });
  });

  it('reads a tenant by external_id or id; 404 for unknown or malformed names and for other accounts', async () => {
    const created = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('read') } })).body.tenant;
    const byExternal = await api('GET', `/tenants/${created.external_id}`, { key: account.key });
    expect(byExternal.status).toBe(200);
    expect(byExternal.body.tenant).toEqual(created);
    expect((await api('GET', `/tenants/${created.id}`, { key: account.key })).body.tenant).toEqual(created);
    for (const name of ['nobody', 'ten_01ARZ3NDEKTSV4RRFFQ69G5FAV', encodeURIComponent('a#b'), 'x'.repeat(200)]) {
      const missing = await api('GET', `/tenants/${name}`, { key: account.key });
      expect({ name, status: missing.status, code: missing.body.error?.code }).toEqual({ name, status: 404, code: 'not_found' });
    }
    const other = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    expect((await api('GET', `/tenants/${created.id}`, { key: other.key })).status).toBe(404);
    expect((await api('GET', `/tenants/${created.external_id}`, { key: other.key })).status).toBe(404);
    expect((await api('PATCH', `/tenants/${created.id}`, { key: other.key, body: { status: 'paused' } })).status).toBe(404);
    expect((await api('DELETE', `/tenants/${created.id}`, { key: other.key })).status).toBe(404);
  });

  it('lists newest first with cursor pagination and a status filter', async () => {
    const lister = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const names = ['t1', 't2', 't3', 't4', 't5'];
    for (const external_id of names) expect((await api('POST', '/tenants', { key: lister.key, body: { external_id } })).status).toBe(201);
    expect((await api('PATCH', '/tenants/t2', { key: lister.key, body: { status: 'paused' } })).status).toBe(200);
    expect((await api('PATCH', '/tenants/t4', { key: lister.key, body: { status: 'paused' } })).status).toBe(200);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api('GET', `/tenants?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: lister.key });
      expect(page.status).toBe(200);
      expect(page.body.tenants.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.tenants.map((t: { external_id: string }) => t.external_id));
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...names].reverse());

    const paused = await api('GET', '/tenants?status=paused', { key: lister.key });
    expect(paused.body.tenants.map((t: { external_id: string }) => t.external_id)).toEqual(['t4', 't2']);
    const active = await api('GET', '/tenants?status=active&limit=2', { key: lister.key });
    expect(active.body.tenants.map((t: { external_id: string }) => t.external_id)).toEqual(['t5', 't3']);
    expect(active.body.has_more).toBe(true);
    const bad = await api('GET', '/tenants?status=deleted', { key: lister.key });
    expect(bad.status).toBe(400);
  });

  it('pauses with a reason and resumes; settings change; external_id is immutable', async () => {
    const external = unique('pause');
    await api('POST', '/tenants', { key: account.key, body: { external_id: external } });
    const paused = await api('PATCH', `/tenants/${external}`, { key: account.key, body: { status: 'paused', reason: 'unpaid invoice' } });
    expect(paused.status).toBe(200);
    expect(paused.body.tenant).toMatchObject({
      status: 'paused',
      paused_reason: 'unpaid invoice',
      pause_source: 'manual',
      paused_at: expect.any(String),
    });
    const resumed = await api('PATCH', `/tenants/${external}`, { key: account.key, body: { status: 'active' } });
    expect(resumed.body.tenant).toMatchObject({ status: 'active', paused_reason: null, paused_at: null, pause_source: null });
    const changed = await api('PATCH', `/tenants/${external}`, {
      key: account.key,
      body: { name: 'Renamed', daily_limit: 42, stream_policy: 'transactional_only', metadata: null },
    });
    expect(changed.body.tenant).toMatchObject({
      name: 'Renamed',
      daily_limit: 42,
      stream_policy: 'transactional_only',
      metadata: null,
      external_id: external,
    });
    expect(
      (await api('PATCH', `/tenants/${external}`, { key: account.key, body: { daily_limit: null } })).body.tenant.daily_limit,
    ).toBeNull();
    for (const body of [{ external_id: 'other' }, {}, { status: 'deleted' }, { reason: 'no status' }]) {
      const refused = await api('PATCH', `/tenants/${external}`, { key: account.key, body });
      expect({ body, status: refused.status }).toEqual({ body, status: 400 });
    }
  });

  it('does not let the API resume a tenant the service paused (403, only an operator resumes it)', async () => {
    const external = unique('auto');
    const created = (await api('POST', '/tenants', { key: account.key, body: { external_id: external } })).body.tenant;
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenant(account.id, external),
        UpdateExpression: 'SET #s = :p, pause_source = :a, paused_reason = :r, paused_at = :t',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':p': 'paused',
          ':a': 'automated',
          ':r': 'bounce rate 7.5% over 24 h',
          ':t': new Date().toISOString(),
        },
      }),
    );
    const refused = await api('PATCH', `/tenants/${created.id}`, { key: account.key, body: { status: 'active' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'forbidden', details: { pause_source: 'automated' } });
    expect((await api('GET', `/tenants/${created.id}`, { key: account.key })).body.tenant.status).toBe('paused');
    // Other changes are still allowed.
    expect((await api('PATCH', `/tenants/${created.id}`, { key: account.key, body: { name: 'still paused' } })).status).toBe(200);
  });

  it('deletes a tenant ({id, object, deleted}); its external_id can be used again by a new tenant', async () => {
    const external = unique('gone');
    const created = (await api('POST', '/tenants', { key: account.key, body: { external_id: external } })).body.tenant;
    const deleted = await api('DELETE', `/tenants/${external}`, { key: account.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created.id, object: 'tenant', external_id: external, deleted: true });
    expect((await api('GET', `/tenants/${external}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', `/tenants/${created.id}`, { key: account.key })).status).toBe(404);
    expect((await api('DELETE', `/tenants/${external}`, { key: account.key })).status).toBe(404);
    const again = await api('POST', '/tenants', { key: account.key, body: { external_id: external } });
    expect(again.status).toBe(201);
    expect(again.body.tenant.id).not.toBe(created.id);
    expect((await api('GET', `/tenants/${created.id}`, { key: account.key })).status).toBe(404);
  });

  it('finishes a deletion that was interrupted half-way', async () => {
    const external = unique('half');
    const created = (await api('POST', '/tenants', { key: account.key, body: { external_id: external } })).body.tenant;
    const { services } = stack();
    // As if a DELETE died after its first step.
    expect(await services.tenants.markDeleting({ account_id: account.id, external_id: external }, new Date().toISOString())).toBe(true);
    expect((await api('GET', `/tenants/${external}`, { key: account.key })).status).toBe(404);
    expect((await api('GET', '/tenants?limit=100', { key: account.key })).body.tenants.map((t: { id: string }) => t.id)).not.toContain(
      created.id,
    );
    const finished = await api('DELETE', `/tenants/${external}`, { key: account.key });
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ id: created.id, deleted: true });
    expect(await services.tenants.find(account.id, external)).toBeNull();
  });

  it('answers 403 tenants_not_enabled on every /tenants route and wherever a tenant is named, for accounts without tenants', async () => {
    const plain = await newAccount({ plan: 'scale', paymentMethod: true, tenants: false });
    const calls: [string, string, unknown?][] = [
      ['POST', '/tenants', { external_id: 'a' }],
      ['GET', '/tenants'],
      ['GET', '/tenants/a'],
      ['PATCH', '/tenants/a', { status: 'paused' }],
      ['DELETE', '/tenants/a'],
      ['POST', '/emails', { from: `a@${SANDBOX}`, to: plain.email, subject: 's', text: 't', tenant: 'a' }],
      ['GET', '/emails?tenant=a'],
      ['GET', '/domains?tenant=a'],
      ['POST', '/api-keys', { name: 'k', scopes: ['full'], tenant: 'a' }],
      ['POST', '/smtp-credentials', { name: 'k', tenant: 'a' }],
      ['GET', '/tenants/a/stats'],
      ['POST', '/tenants/a/domains', { domain: 'example.com' }],
      ['GET', '/tenants/a/domains'],
      ['DELETE', '/tenants/a/domains/example.com'],
      ['POST', '/domains', { name: 'tenants-off.example.com', tenant: 'a' }],
      ['POST', '/suppressions', { email: 'x@example.com', tenant: 'a' }],
      ['GET', '/suppressions?tenant=a'],
      ['POST', '/webhooks', { url: 'https://localhost:3001/hooks', events: ['email.sent'], tenants: ['a'] }],
      ['POST', '/emails/test', { event: 'email.delivered', tenant: 'a' }],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: plain.key, body });
      expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'tenants_not_enabled',
      });
    }
    // A batch item naming a tenant is refused on its own, with the same code.
    const batch = await api('POST', '/emails/batch', {
      key: plain.key,
      body: [{ from: `a@${SANDBOX}`, to: plain.email, subject: 's', text: 't', tenant: 'a' }],
    });
    expect(JSON.stringify(batch.body)).toContain('tenants_not_enabled');
  });

  it('lets a key limited to a tenant read only its own tenant (403 for other tenants and account-wide routes)', async () => {
    const mine = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('mine') } })).body.tenant;
    const theirs = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('theirs') } })).body.tenant;
    const key = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'tenant key', scopes: ['full'], tenant: mine.external_id },
    });
    expect(key.status).toBe(201);
    const limited = key.body.secret;
    expect((await api('GET', `/tenants/${mine.external_id}`, { key: limited })).body.tenant.id).toBe(mine.id);
    expect((await api('GET', `/tenants/${mine.id}`, { key: limited })).status).toBe(200);
    const calls: [string, string, unknown?][] = [
      ['GET', `/tenants/${theirs.external_id}`],
      ['GET', '/tenants'],
      ['POST', '/tenants', { external_id: unique('sneaky') }],
      ['PATCH', `/tenants/${mine.external_id}`, { status: 'paused' }],
      ['DELETE', `/tenants/${mine.external_id}`],
      ['POST', '/api-keys', { name: 'k', scopes: ['full'], tenant: theirs.external_id }],
    ];
    for (const [method, path, body] of calls) {
      const response = await api(method, path, { key: limited, body });
      expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'forbidden',
      });
    }
  });
});
