/**
 * The audit middleware (shared/doors/http/middleware/audit.ts): a successful change is recorded once, with
 * its action (the operationId), the path's ids, the actor, the source IP and user agent; a read, a failed
 * change and an unaudited operation (a send) are never recorded; no body field ever reaches a record.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import type { AuditRecord } from '#shared/domain/audit/audit-record';
import { pathParams } from '#shared/domain/audit/audited-actions';
import { ValidationError } from '#shared/domain/errors';
import { createFrame } from '#shared/doors/http/create-api';
import { routes } from '#shared/doors/http/route';
import { apiKeyOps } from '#functions/api/api-keys/operations';
import type { ApiEnv } from '#shared/doors/http/env';
import { auditChanges, dashboardSucceeded } from '#shared/doors/http/middleware/audit';
import type { Principal } from '#shared/usecases/access/principal';

const account = { id: 'acc_01HZZZZZZZZZZZZZZZZZZZZZZZ' } as Principal['account'];
const keyPrincipal: Principal = {
  account,
  credential: { kind: 'api_key', id: 'key_01HAAAAAAAAAAAAAAAAAAAAAAA', scopes: ['full'], tenant: null, allowed_domains: null },
};

function harness(options: { failWrite?: boolean; principal?: Principal | null } = {}) {
  const records: AuditRecord[] = [];
  const nameReads: string[] = [];
  const deps = {
    clock: { now: () => new Date('2026-03-01T10:00:00.000Z') },
    auditLog: {
      append: async (record: AuditRecord) => {
        if (options.failWrite) throw new Error('throttled');
        records.push(record);
      },
      apiKeyName: async (_accountId: string, keyId: string) => {
        nameReads.push(keyId);
        return 'ci key';
      },
    },
  };
  const app: Hono<ApiEnv> = createFrame();
  app.use('*', auditChanges(deps));
  app.use('*', async (c, next) => {
    if (options.principal !== null) c.set('principal', options.principal ?? keyPrincipal);
    await next();
  });
  // As route() (shared/doors/http/route.ts) names an operation's request.
  const named =
    (operationId: string): MiddlewareHandler<ApiEnv> =>
    async (c, next) => {
      c.set('operationId', operationId);
      await next();
    };
  // A create through route(), as its group registers it: the id it made reaches the record.
  routes(app)(apiKeyOps.createApiKey, async (c) => c.json({ api_key: { id: 'key_new' }, secret: 'svc_secret' }, 201));
  app.get('/api-keys', named('listApiKeys'), (c) => c.json({ api_keys: [] }));
  app.delete('/webhooks/:id', named('deleteWebhook'), (c) => c.json({ ok: true }));
  app.post('/domains/:id', named('domainAction'), () => {
    throw new ValidationError('bad action');
  });
  app.post('/emails', named('sendEmail'), (c) => c.json({ id: 'msg_1' }, 202));
  app.post('/custom/:thing/go', (c) => c.json({ ok: true }));
  app.post('/mcp', (c) => c.json({ jsonrpc: '2.0' }));
  const request = (method: string, path: string, body?: unknown) =>
    app.request(
      path,
      {
        method,
        headers: { 'content-type': 'application/json', 'user-agent': 'curl/8.5', authorization: 'Bearer svc_secretvalue' },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      { event: { requestContext: { http: { sourceIp: '203.0.113.7' } } } } as never,
    );
  return { records, request, nameReads };
}

describe('audit middleware', () => {
  it("names the key from what authentication read with it (no read of its own); an older key's name is read from its listing", async () => {
    const named = harness({ principal: { account, credential: { ...keyPrincipal.credential, name: 'deploy key' } } });
    expect((await named.request('DELETE', '/webhooks/wh_1')).status).toBe(200);
    expect(named.records[0]!.actor).toEqual({ type: 'api_key', id: keyPrincipal.credential.id, name: 'deploy key' });
    expect(named.nameReads).toEqual([]);
    // A lookup item written before keys carried their name: one read of the key's listing item.
    const older = harness();
    expect((await older.request('DELETE', '/webhooks/wh_1')).status).toBe(200);
    expect(older.records[0]!.actor).toEqual({ type: 'api_key', id: keyPrincipal.credential.id, name: 'ci key' });
    expect(older.nameReads).toEqual([keyPrincipal.credential.id]);
  });

  it('records a successful change once, with its operationId, the id a create made, actor, source and no body field', async () => {
    const { records, request } = harness();
    const response = await request('POST', '/api-keys', { name: 'very secret name value', scopes: ['full'] });
    expect(response.status).toBe(201);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      account_id: account.id,
      tenant_id: null,
      action: 'createApiKey',
      resource_ids: { id: 'key_new' },
      actor: { type: 'api_key', id: keyPrincipal.credential.id, name: 'ci key' },
      status: 201,
      source_ip: '203.0.113.7',
      user_agent: 'curl/8.5',
      created_at: '2026-03-01T10:00:00.000Z',
    });
    expect(record!.id).toMatch(/^aud_[0-9A-HJKMNP-TV-Z]{26}$/);
    const text = JSON.stringify(record);
    expect(text).not.toContain('very secret name value');
    expect(text).not.toContain('svc_secret');
  });

  it('extracts the resource ids of the path', async () => {
    const { records, request } = harness();
    await request('DELETE', '/webhooks/wh_01HBBBBBBBBBBBBBBBBBBBBBBB');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ action: 'deleteWebhook', resource_ids: { id: 'wh_01HBBBBBBBBBBBBBBBBBBBBBBB' } });
  });

  it('names a route without an operation by its method and pattern', async () => {
    const { records, request } = harness();
    await request('POST', '/custom/abc/go');
    expect(records[0]).toMatchObject({ action: 'POST /custom/:thing/go', resource_ids: { thing: 'abc' } });
  });

  it('records nothing for a read, a failure, a send, or a request without an actor', async () => {
    const { records, request } = harness();
    expect((await request('GET', '/api-keys')).status).toBe(200);
    expect((await request('POST', '/domains/dom_1', { action: 'verify' })).status).toBe(400);
    expect((await request('POST', '/emails', { to: 'a@example.com' })).status).toBe(202);
    expect((await request('POST', '/nowhere')).status).toBe(404);
    expect((await request('POST', '/mcp', { method: 'tools/call' })).status).toBe(200);
    expect(records).toHaveLength(0);
    const anonymous = harness({ principal: null });
    await anonymous.request('POST', '/api-keys', {});
    expect(anonymous.records).toHaveLength(0);
  });

  it('a failed audit write does not fail the request, and is logged as an error', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const previous = process.env.LOG_LEVEL;
    delete process.env.LOG_LEVEL;
    try {
      const { records, request } = harness({ failWrite: true });
      expect((await request('POST', '/api-keys', { name: 'ci', scopes: ['full'] })).status).toBe(201);
      expect(records).toHaveLength(0);
      expect(
        errors.mock.calls
          .map((call) => String(call[0]))
          .some((line) => line.includes('audit record not written') && line.includes('createApiKey')),
      ).toBe(true);
    } finally {
      process.env.LOG_LEVEL = previous;
      errors.mockRestore();
    }
  });

  it('records a dashboard user as the actor', async () => {
    const records: AuditRecord[] = [];
    const app: Hono<ApiEnv> = createFrame();
    app.use(
      '*',
      auditChanges({
        clock: { now: () => new Date() },
        auditLog: { append: async (record) => void records.push(record), apiKeyName: async () => null },
      }),
    );
    app.use('*', async (c, next) => {
      c.set('principal', { account, credential: { kind: 'session', id: 'usr_1', scopes: ['full'], tenant: null, allowed_domains: null } });
      c.set('session', { user: { id: 'usr_1', email: 'owner@example.com', role: 'admin' } } as never);
      await next();
    });
    app.delete(
      '/dashboard/team/members/:id',
      async (c, next) => {
        c.set('operationId', 'removeMember'); // as route() names it
        await next();
      },
      (c) => c.json({ ok: true }),
    );
    await app.request('/dashboard/team/members/usr_2', { method: 'DELETE' });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      action: 'removeMember',
      resource_ids: { id: 'usr_2' },
      actor: { type: 'user', id: 'usr_1', email: 'owner@example.com', role: 'admin' },
    });
  });
});

describe('dashboardSucceeded', () => {
  const flash = (kind: string) => `svc_flash=${Buffer.from(JSON.stringify({ k: kind, t: 'x' })).toString('base64url')}; Path=/dashboard`;
  const contextOf = (status: number, cookie?: string) =>
    ({ res: new Response(null, { status, headers: cookie ? { 'set-cookie': cookie } : {} }) }) as never;
  it('takes a 2xx and a 303 without an error flash as a success, not an error flash or a 4xx', () => {
    expect(dashboardSucceeded(contextOf(200))).toBe(true);
    expect(dashboardSucceeded(contextOf(303, flash('ok')))).toBe(true);
    expect(dashboardSucceeded(contextOf(303))).toBe(true);
    expect(dashboardSucceeded(contextOf(303, flash('error')))).toBe(false);
    expect(dashboardSucceeded(contextOf(403))).toBe(false);
  });
});

describe('pathParams', () => {
  it('names the ids of a pattern, decoded, and nothing else', () => {
    expect(pathParams('/tenants/:tenant/domains/:domain', '/tenants/acme%20co/domains/dom_1')).toEqual({
      tenant: 'acme co',
      domain: 'dom_1',
    });
    expect(pathParams('/api-keys', '/api-keys')).toEqual({});
  });
});
