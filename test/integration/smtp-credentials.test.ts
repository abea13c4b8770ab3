/**
 * SMTP credentials against the local cloud: POST /smtp-credentials (password shown once, stored only as
 * its hash), GET (paginated, no secrets), DELETE (revoked at once), tenant and allowed_domains limits as
 * for API keys, the tenant deletion revoking its credentials, bad input, and isolation between accounts.
 * The relay's AUTH is `authenticateSmtp` (shared/usecases/access/authenticate.ts), called here with the stack's
 * services and through a real SMTP session.
 */
import { GetCommand, QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret } from '#shared/domain/api-keys/secret';
import { keys } from '#shared/adapters/store/keys';
import { authenticateSmtp } from '#shared/usecases/access/authenticate';
import { transport } from './harness/smtp';
import { api, newAccount, stack, waitFor, type TestAccount } from './harness/stack';
import { documentClient } from './harness/usage';
import { unique } from './harness/tenants';

const SANDBOX = 'sandbox.mailservice.dev';
const auth = (password: string) => authenticateSmtp(stack().services, 'mailservice', password);

describe('SMTP credentials', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
  });

  it('creates a credential: 201 with the password once (svcsmtp_), the fixed username, every field; stored only as a hash', async () => {
    const created = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'wordpress' } });
    expect(created.status).toBe(201);
    const { smtp_credential: credential, password } = created.body;
    expect(password).toMatch(/^svcsmtp_[A-Za-z0-9_-]{43}$/);
    expect(credential).toEqual({
      object: 'smtp_credential',
      id: expect.stringMatching(/^smtp_[0-9A-Z]{26}$/),
      name: 'wordpress',
      username: 'mailservice',
      tenant: null,
      allowed_domains: null,
      created_at: expect.stringMatching(/Z$/),
      last_used_at: null,
    });
    // No item of the table holds the password in plain text.
    const items = await documentClient().send(new ScanCommand({ TableName: stack().info.env.TABLE_NAME! }));
    expect(JSON.stringify(items.Items)).not.toContain(password);
    expect(JSON.stringify(items.Items)).not.toContain(password.slice('svcsmtp_'.length));
    // Two items, as for an API key: the listing item and the lookup item under the password's hash, which
    // the relay's AUTH and the send core's one BatchGetItem read (kind smtp, may only send).
    const table = stack().info.env.TABLE_NAME!;
    const listing = (
      await documentClient().send(
        new GetCommand({ TableName: table, Key: keys.smtpCredential(account.id, credential.id), ConsistentRead: true }),
      )
    ).Item;
    expect(listing).toMatchObject({ type: 'smtp_credential', id: credential.id, secret_hash: hashSecret(password) });
    const lookup = (
      await documentClient().send(new GetCommand({ TableName: table, Key: keys.apiKeyHash(hashSecret(password)), ConsistentRead: true }))
    ).Item;
    expect(lookup).toMatchObject({
      type: 'api_key_lookup',
      kind: 'smtp',
      key_id: credential.id,
      account_id: account.id,
      scopes: ['emails:send'],
      tenant: null,
      allowed_domains: null,
    });
    // It authenticates the relay as this account, limited to sending.
    const principal = await auth(password);
    expect(principal).toMatchObject({
      account: { id: account.id },
      credential: { kind: 'smtp', id: credential.id, scopes: ['emails:send'] },
    });
    // The listing never shows it again.
    const list = await api('GET', '/smtp-credentials', { key: account.key });
    expect(list.text).not.toContain(password);
  });

  it('lists newest first with cursor pagination, without secrets', async () => {
    const other = await newAccount();
    const names = ['one', 'two', 'three'];
    for (const name of names) expect((await api('POST', '/smtp-credentials', { key: other.key, body: { name } })).status).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { smtp_credentials: { name: string }[]; has_more: boolean; next_cursor: string | null } } = await api(
        'GET',
        `/smtp-credentials?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { key: other.key },
      );
      expect(page.body.smtp_credentials).toHaveLength(1);
      seen.push(page.body.smtp_credentials[0]!.name);
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...names].reverse());
    const all = await api('GET', '/smtp-credentials', { key: other.key });
    expect(all.text).not.toMatch(/svcsmtp_|secret_hash/);
    expect((await api('GET', '/smtp-credentials?cursor=bogus', { key: other.key })).status).toBe(400);
  });

  it('revokes at once: the next AUTH is refused (535 to a client); a second DELETE is 404', async () => {
    const created = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'revoke me' } })).body;
    const mailer = transport(created.password);
    // A message goes through before the revocation.
    await mailer.sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 'before', text: 'x' });
    const deleted = await api('DELETE', `/smtp-credentials/${created.smtp_credential.id}`, { key: account.key });
    expect(deleted.status).toBe(200);
    await expect(auth(created.password)).rejects.toMatchObject({ status: 401 });
    await expect(mailer.sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 'after', text: 'x' })).rejects.toMatchObject({
      responseCode: 535,
    });
    const again = await api('DELETE', `/smtp-credentials/${created.smtp_credential.id}`, { key: account.key });
    expect({ status: again.status, code: again.body.error?.code }).toEqual({ status: 404, code: 'not_found' });
    const list = await api('GET', '/smtp-credentials?limit=100', { key: account.key });
    expect(list.body.smtp_credentials.map((c: { id: string }) => c.id)).not.toContain(created.smtp_credential.id);
  });

  it('records last_used_at after a successful AUTH', async () => {
    const created = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'used' } })).body;
    await transport(created.password).sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 'use', text: 'x' });
    const used = await waitFor(async () => {
      const list = await api('GET', '/smtp-credentials?limit=100', { key: account.key });
      return list.body.smtp_credentials.find(
        (c: { id: string; last_used_at: string | null }) => c.id === created.smtp_credential.id && c.last_used_at,
      );
    }, 'last_used_at');
    expect(Date.parse(used.last_used_at)).toBeGreaterThanOrEqual(Date.parse(created.smtp_credential.created_at));
  });

  it('touchLastUsed sets last_used_at on the listing item only; a revoked or unknown credential is no error and no item is created', async () => {
    const created = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'touch' } })).body;
    const { smtpCredentials } = stack().services;
    await smtpCredentials.touchLastUsed(account.id, created.smtp_credential.id, '2026-11-23T08:00:00.000Z');
    const list = await api('GET', '/smtp-credentials?limit=100', { key: account.key });
    expect(list.body.smtp_credentials.find((c: { id: string }) => c.id === created.smtp_credential.id).last_used_at).toBe(
      '2026-11-23T08:00:00.000Z',
    );
    expect((await api('DELETE', `/smtp-credentials/${created.smtp_credential.id}`, { key: account.key })).status).toBe(200);
    const table = stack().info.env.TABLE_NAME!;
    for (const id of [created.smtp_credential.id, 'smtp_01HZZZZZZZZZZZZZZZZZZZZZZZ']) {
      await expect(smtpCredentials.touchLastUsed(account.id, id, '2026-11-23T08:01:00.000Z')).resolves.toBeUndefined();
      expect(
        (await documentClient().send(new GetCommand({ TableName: table, Key: keys.smtpCredential(account.id, id), ConsistentRead: true })))
          .Item,
      ).toBeUndefined();
    }
  });

  it('keeps the doors apart: a password is not an API key, an API key is not a password', async () => {
    const created = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'doors' } })).body;
    const asBearer = await api('GET', '/emails', { key: created.password });
    expect(asBearer.status).toBe(401);
    await expect(auth(account.key)).rejects.toMatchObject({ status: 401 });
    await expect(authenticateSmtp(stack().services, 'apikey', created.password)).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('mailservice'),
    });
  });

  it('limits to allowed_domains as API keys do: the sandbox sender is refused at MAIL FROM', async () => {
    const created = await api('POST', '/smtp-credentials', {
      key: account.key,
      body: { name: 'domains', allowed_domains: ['Example.COM', 'example.com'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.smtp_credential.allowed_domains).toEqual(['example.com']);
    await expect(
      transport(created.body.password).sendMail({ from: `a@${SANDBOX}`, to: account.email, subject: 's', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    for (const allowed_domains of [[], ['not a domain'], 'example.com']) {
      const bad = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'x', allowed_domains } });
      expect({ status: bad.status, code: bad.body.error?.code }).toEqual({ status: 400, code: 'validation_error' });
    }
  });

  it('limits to a tenant (named by external_id or id); the tenant deletion revokes its credentials', async () => {
    const tenant = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('smtp') } })).body.tenant;
    const byExternal = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 't1', tenant: tenant.external_id } });
    const byId = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 't2', tenant: tenant.id } });
    for (const created of [byExternal, byId]) {
      expect(created.status).toBe(201);
      expect(created.body.smtp_credential.tenant).toBe(tenant.external_id);
      expect((await auth(created.body.password)).credential.tenant).toBe(tenant.id);
    }
    expect((await api('DELETE', `/tenants/${tenant.external_id}`, { key: account.key })).status).toBe(200);
    for (const created of [byExternal, byId]) await expect(auth(created.body.password)).rejects.toMatchObject({ status: 401 });
    const rows = await documentClient().send(
      new QueryCommand({
        TableName: stack().info.env.TABLE_NAME!,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': `ACCOUNT#${account.id}`, ':p': 'SMTPCRED#' },
        ConsistentRead: true,
      }),
    );
    expect((rows.Items ?? []).filter((item) => item.tenant === tenant.id)).toEqual([]);
    // A deleted tenant can not be given a credential.
    const late = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'late', tenant: tenant.external_id } });
    expect(late.status).toBe(404);
  });

  it('403 tenants_not_enabled without tenants; 404 for an unknown tenant; 403 forbidden for a key limited to a tenant', async () => {
    const plain = await newAccount();
    const refused = await api('POST', '/smtp-credentials', { key: plain.key, body: { name: 'x', tenant: 'acme' } });
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 403, code: 'tenants_not_enabled' });
    const unknown = await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'x', tenant: 'nobody-here' } });
    expect({ status: unknown.status, code: unknown.body.error?.code }).toEqual({ status: 404, code: 'not_found' });
    const tenant = (await api('POST', '/tenants', { key: account.key, body: { external_id: unique('limited') } })).body.tenant;
    const limited = (await api('POST', '/api-keys', { key: account.key, body: { name: 'k', scopes: ['full'], tenant: tenant.id } })).body
      .secret;
    for (const [method, path, body] of [
      ['POST', '/smtp-credentials', { name: 'x' }],
      ['POST', '/smtp-credentials', { name: 'x', tenant: tenant.id }],
      ['GET', '/smtp-credentials'],
      ['DELETE', '/smtp-credentials/smtp_01HZZZZZZZZZZZZZZZZZZZZZZZ'],
    ] as [string, string, unknown?][]) {
      const response = await api(method, path, { key: limited, body });
      expect({ method, path, status: response.status, code: response.body.error?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'forbidden',
      });
    }
  });

  it('refuses bad input with 4xx and the error envelope, never 500', async () => {
    const cases: [string, string, unknown, number][] = [
      ['POST', '/smtp-credentials', {}, 400],
      ['POST', '/smtp-credentials', { name: '' }, 400],
      ['POST', '/smtp-credentials', { name: 'x'.repeat(101) }, 400],
      ['POST', '/smtp-credentials', { name: 7 }, 400],
      ['POST', '/smtp-credentials', [], 400],
      ['DELETE', `/smtp-credentials/${'x'.repeat(3000)}`, undefined, 404],
      ['DELETE', '/smtp-credentials/key_01HZZZZZZZZZZZZZZZZZZZZZZZ', undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const response = await api(method, path, { key: account.key, body });
      expect({ path: path.slice(0, 40), status: response.status, message: typeof response.body?.error?.message }).toEqual({
        path: path.slice(0, 40),
        status,
        message: 'string',
      });
    }
    expect((await api('POST', '/smtp-credentials', { body: { name: 'x' } })).status).toBe(401);
  });

  it('keeps accounts apart: another account can neither list nor revoke a credential', async () => {
    const created = (await api('POST', '/smtp-credentials', { key: account.key, body: { name: 'mine' } })).body;
    const stranger = await newAccount();
    const revoke = await api('DELETE', `/smtp-credentials/${created.smtp_credential.id}`, { key: stranger.key });
    expect({ status: revoke.status, code: revoke.body.error?.code }).toEqual({ status: 404, code: 'not_found' });
    expect((await api('GET', '/smtp-credentials', { key: stranger.key })).body.smtp_credentials).toEqual([]);
    // Still valid for its own account.
    expect((await auth(created.password)).account.id).toBe(account.id);
  });
});
