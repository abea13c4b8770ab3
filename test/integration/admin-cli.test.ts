/** The operator CLI (`npm run admin`: localstack/admin.cjs) against the running local stack (found through its data folder). */
import { runAdminCli } from './harness/admin-cli';
import { api, stack, uniqueEmail } from './harness/stack';

const admin = (...args: string[]) => runAdminCli(process.env.TEST_STACK_DATA_DIR, ...args);

describe('admin CLI', () => {
  it('creates an account and prints one JSON line with a working full-access key', async () => {
    const email = uniqueEmail('cli');
    const result = await admin('account', 'create', '--email', email, '--plan', 'pro');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!);
    // The key as POST /api-keys answers one: the key (no secret in it) and its secret.
    expect(created).toEqual({
      account_id: expect.stringMatching(/^acc_/),
      api_key: expect.objectContaining({ object: 'api_key', id: expect.stringMatching(/^key_/), scopes: ['full'], tenant: null }),
      secret: expect.stringMatching(/^svc_/),
    });
    expect(JSON.stringify(created.api_key)).not.toContain(created.secret);
    const keys = await api('GET', '/api-keys', { key: created.secret });
    expect(keys.status).toBe(200);
    expect(keys.body.api_keys).toEqual([created.api_key]);
    const account = await stack().services.accounts.get(created.account_id);
    expect(account).toMatchObject({ email, plan: 'pro', payment_method: false, tenants_enabled: false });

    const updated = await admin('account', 'update', '--id', created.account_id, '--plan', 'scale', '--payment-method', '--tenants');
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ plan: 'scale', payment_method: true, tenants_enabled: true });
    expect(await stack().services.accounts.get(created.account_id)).toMatchObject({
      plan: 'scale',
      payment_method: true,
      tenants_enabled: true,
    });

    const duplicate = await admin('account', 'create', '--email', email.toUpperCase());
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('already exists');
  });

  it('resumes a tenant the service paused (the API refuses to), and refuses unknown tenants', async () => {
    const created = JSON.parse(
      (await admin('account', 'create', '--email', uniqueEmail('tenants'), '--plan', 'scale', '--payment-method', '--tenants')).stdout,
    );
    const tenant = (await api('POST', '/tenants', { key: created.secret, body: { external_id: 'paused-by-service' } })).body.tenant;
    await stack().services.tenants.update(
      { account_id: created.account_id, external_id: tenant.external_id },
      { status: 'paused', pause_source: 'automated', paused_reason: 'complaint rate 0.4%', paused_at: new Date().toISOString() },
      new Date().toISOString(),
    );
    expect((await api('PATCH', `/tenants/${tenant.id}`, { key: created.secret, body: { status: 'active' } })).status).toBe(403);
    const resumed = await admin('tenant', 'resume', '--account', created.account_id, '--tenant', 'paused-by-service');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toEqual({ tenant_id: tenant.id, external_id: 'paused-by-service', status: 'active' });
    expect((await api('GET', `/tenants/${tenant.id}`, { key: created.secret })).body.tenant).toMatchObject({
      status: 'active',
      pause_source: null,
      paused_reason: null,
    });
    const unknown = await admin('tenant', 'resume', '--account', created.account_id, '--tenant', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');
    expect((await admin('tenant', 'resume', '--account', created.account_id)).code).toBe(2);
  });

  it('refuses bad input with a usage error', async () => {
    const badPlan = await admin('account', 'create', '--email', uniqueEmail(), '--plan', 'gold');
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('--plan must be one of free, pro, scale, dedicated');
    const unknown = await admin('account', 'update', '--id', 'acc_01ZZZZZZZZZZZZZZZZZZZZZZZZ', '--plan', 'pro');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');
  });

  it('creates exactly one account when the same email is registered concurrently', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        import('#shared/usecases/access/accounts').then(({ createAccount }) =>
          createAccount(stack().services, { email, plan: 'free', paymentMethod: false, tenants: false }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason.code).toBe('conflict');
  });
});
