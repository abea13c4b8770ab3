/** POST/GET/DELETE /api-keys and scope checks. */
import { api, newAccount, type TestAccount } from './harness/stack';

const SANDBOX = 'sandbox.mailservice.dev';

describe('/api-keys', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('creates a key, returns its secret once, and the key works at once', async () => {
    const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'sender', scopes: ['emails:send'] } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(created.body.api_key).toEqual({
      object: 'api_key',
      id: expect.stringMatching(/^key_/),
      name: 'sender',
      scopes: ['emails:send'],
      tenant: null,
      allowed_domains: null,
      hint: `${created.body.secret.slice(0, 8)}…`,
      created_at: expect.any(String),
    });
    const send = await api('POST', '/emails', {
      key: created.body.secret,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' },
    });
    expect(send.status).toBe(200);

    const list = await api('GET', '/api-keys', { key: account.key });
    expect(list.text).not.toContain(created.body.secret);
    expect(list.text).not.toContain('secret_hash');
    expect(list.body.api_keys.map((k: { id: string }) => k.id)).toContain(created.body.api_key.id);
  });

  it('enforces scopes with 403 insufficient_scope', async () => {
    const domainsOnly = await api('POST', '/api-keys', { key: account.key, body: { name: 'domains', scopes: ['domains:write'] } });
    const key = domainsOnly.body.secret;
    const send = await api('POST', '/emails', { key, body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' } });
    expect(send.status).toBe(403);
    expect(send.body.error.code).toBe('insufficient_scope');
    const createKey = await api('POST', '/api-keys', { key, body: { name: 'escalate', scopes: ['full'] } });
    expect(createKey.status).toBe(403);
    expect(createKey.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scopes: ['full', 'mail:admin'] } });
    const list = await api('GET', '/api-keys', { key });
    expect(list.status).toBe(403);
    const sent = await api('POST', '/emails', {
      key: account.key,
      body: { from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 't' },
    });
    const read = await api('GET', `/emails/${sent.body.id}`, { key });
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe('insufficient_scope');

    const reader = await api('POST', '/api-keys', { key: account.key, body: { name: 'reader', scopes: ['account:read'] } });
    expect((await api('GET', '/api-keys', { key: reader.body.secret })).status).toBe(200);
  });

  it('validates names, scopes and allowed_domains', async () => {
    const response = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: '', scopes: ['everything'], allowed_domains: ['not a domain'] },
    });
    expect(response.status).toBe(400);
    const fields = response.body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'scopes.0', 'allowed_domains.0']));
    const stored = await api('POST', '/api-keys', {
      key: account.key,
      body: { name: 'limited', scopes: ['emails:send'], allowed_domains: ['Example.com'] },
    });
    expect(stored.body.api_key.allowed_domains).toEqual(['example.com']);
  });

  it('refuses a tenant on an account without tenants (403 tenants_not_enabled)', async () => {
    const response = await api('POST', '/api-keys', { key: account.key, body: { name: 't', scopes: ['full'], tenant: 'customer-1' } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('tenants_not_enabled');
  });

  it('paginates newest first with an opaque cursor', async () => {
    const owner = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api('POST', '/api-keys', { key: owner.key, body: { name: `k${i}`, scopes: ['emails:send'] } })).body.api_key.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await api('GET', `/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: owner.key });
      expect(page.status).toBe(200);
      expect(page.body.api_keys.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.api_keys.map((k: { id: string }) => k.id));
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    // 5 created + the account's first key, newest first.
    expect(seen).toHaveLength(6);
    expect(pages).toBe(3);
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());

    const badLimit = await api('GET', '/api-keys?limit=101', { key: owner.key });
    expect(badLimit.status).toBe(400);
    const otherAccount = await newAccount();
    const first = await api('GET', '/api-keys?limit=1', { key: owner.key });
    const stolen = await api('GET', `/api-keys?cursor=${first.body.next_cursor}`, { key: otherAccount.key });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.details.fields[0].field).toBe('cursor');
  });

  it('revokes a key so that it stops working at once; revoking twice concurrently deletes once', async () => {
    const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'temp', scopes: ['full'] } });
    expect((await api('GET', '/api-keys', { key: created.body.secret })).status).toBe(200);
    const results = await Promise.all([1, 2, 3].map(() => api('DELETE', `/api-keys/${created.body.api_key.id}`, { key: account.key })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404]);
    expect(results.find((r) => r.status === 200)!.body).toEqual({ ok: true });
    const after = await api('GET', '/api-keys', { key: created.body.secret });
    expect(after.status).toBe(401);
  });

  it('stops a revoked key from sending at once, even after it has sent (its account remembered by the API)', async () => {
    const created = await api('POST', '/api-keys', { key: account.key, body: { name: 'sender', scopes: ['emails:send'] } });
    const send = () =>
      api('POST', '/emails', {
        key: created.body.secret,
        body: { from: 'a@sandbox.mailservice.dev', to: account.email, subject: 'r', text: 't' },
      });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    expect((await api('DELETE', `/api-keys/${created.body.api_key.id}`, { key: account.key })).status).toBe(200);
    const after = await send();
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe('Invalid API key.');
  });

  it('cannot see or revoke keys of another account', async () => {
    const other = await newAccount();
    const created = await api('POST', '/api-keys', { key: other.key, body: { name: 'theirs', scopes: ['full'] } });
    const response = await api('DELETE', `/api-keys/${created.body.api_key.id}`, { key: account.key });
    expect(response.status).toBe(404);
    expect((await api('GET', '/api-keys', { key: created.body.secret })).status).toBe(200);
  });
});
