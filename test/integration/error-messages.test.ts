/**
 * Errors a new user meets first name the field, the problem and the fix (issue 28): a bad address, a
 * tenant named on an account without tenants (by a field, or by a /tenants path: no "remove the field" for
 * a field that was never sent), and POST /api-keys without `scopes` (a full-access key, as Resend's
 * `permission` defaults to full_access).
 */
import { api, newAccount } from './harness/stack';

describe('error messages that say what to fix', () => {
  it('a bad address names the field, the address and the form to use', async () => {
    const account = await newAccount();
    const single = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@sandbox.mailservice.dev', to: 'ann@', subject: 's', text: 't' },
    });
    expect(single.status).toBe(400);
    expect(single.body.error.details.fields).toEqual([
      { field: 'to', message: '"ann@" is not a valid email address: write name@example.com or "Name <name@example.com>"' },
    ]);

    const list = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@sandbox.mailservice.dev', to: [account.email, 'bob'], subject: 's', text: 't' },
    });
    expect(list.body.error.details.fields).toEqual([
      { field: 'to.1', message: expect.stringMatching(/^"bob" is not a valid email address: write /) },
    ]);

    const wrongType = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'a@sandbox.mailservice.dev', to: 42, subject: 's', text: 't' },
    });
    expect(wrongType.body.error.details.fields).toEqual([
      { field: 'to', message: expect.stringMatching(/^must be an email address or a list of them: write /) },
    ]);

    const from = await api('POST', '/emails', {
      key: account.key,
      body: { from: 'not an address', to: account.email, subject: 's', text: 't' },
    });
    expect(from.body.error.details.fields).toEqual([
      { field: 'from', message: expect.stringMatching(/^"not an address" is not a valid email address .*: write /) },
    ]);
    for (const response of [single, list, wrongType, from]) expect(JSON.stringify(response.body)).not.toContain('Invalid input');
  });

  it('tenants_not_enabled: a field names that field; a /tenants path says how tenants are enabled, not to remove a field', async () => {
    const account = await newAccount();
    const byField = await api('POST', '/suppressions', { key: account.key, body: { email: 'ann@example.com', tenant: 'acme' } });
    expect(byField.status).toBe(403);
    expect(byField.body.error).toMatchObject({
      code: 'tenants_not_enabled',
      message: 'Tenants are not enabled for this account, so `tenant` cannot name one.',
      details: { field: 'tenant' },
      hint: expect.stringMatching(/^Leave out `tenant` to act for the whole account; .*--plan scale --tenants/),
    });

    const webhook = await api('POST', '/webhooks', { key: account.key, body: { url: 'https://localhost:3001/hooks', tenants: ['acme'] } });
    expect(webhook.body.error).toMatchObject({ code: 'tenants_not_enabled', details: { field: 'tenants' } });

    for (const [method, path, body] of [
      ['POST', '/tenants', { external_id: 'acme' }],
      ['GET', '/tenants', undefined],
      ['GET', '/tenants/acme', undefined],
      ['PATCH', '/tenants/acme', { status: 'paused' }],
      ['DELETE', '/tenants/acme', undefined],
      ['GET', '/tenants/acme/domains', undefined],
    ] as const) {
      const response = await api(method, path, { key: account.key, body });
      expect({ path, status: response.status, code: response.body.error.code }).toEqual({ path, status: 403, code: 'tenants_not_enabled' });
      expect(response.body.error.message).toBe(
        'Tenants are not enabled for this account, so the /tenants endpoints are not available to it.',
      );
      expect(response.body.error.hint).toMatch(
        /^To use them: tenants come with the Scale and Dedicated plans, .*admin account update --id <account_id> --plan scale --tenants/,
      );
      expect(JSON.stringify(response.body)).not.toMatch(/field/i);
    }
  });

  it('POST /api-keys without scopes makes a full-access key; scopes, when sent, are kept', async () => {
    const account = await newAccount();
    const bare = await api('POST', '/api-keys', { key: account.key, body: { name: 'ci' } });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ api_key: { name: 'ci', scopes: ['full'] }, secret: expect.stringMatching(/^svc_/) });
    expect((await api('GET', '/domains', { key: bare.body.secret })).status).toBe(200);

    const sending = await api('POST', '/api-keys', { key: account.key, body: { name: 'app', scopes: ['emails:send'] } });
    expect(sending.body.api_key.scopes).toEqual(['emails:send']);
    const empty = await api('POST', '/api-keys', { key: account.key, body: { name: 'none', scopes: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.fields).toEqual([{ field: 'scopes', message: 'at least one scope is required' }]);
  });
});
