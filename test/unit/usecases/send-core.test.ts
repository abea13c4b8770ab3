/** The send core with in-memory fakes of its ports: who, policy, idempotency, limits, scheduling. */
import { sendEmail } from '#shared/usecases/send/send-email';
import type { SendRequest } from '#shared/domain/emails/send-request';
import { account, fakeSendDeps, keyLookup, NOW, SANDBOX, storedTenant, tenant } from './send-fakes';

const request = (overrides: Partial<SendRequest> = {}): SendRequest =>
  ({ from: { email: `hi@${SANDBOX}` }, to: ['owner@example.com'], subject: 'Hello', text: 'hi', ...overrides }) as SendRequest;

const principal = (overrides: Parameters<typeof account>[0] = {}, scopes = ['full']) => ({
  account: account(overrides),
  credential: { kind: 'api_key' as const, id: 'key_1', scopes, tenant: null, allowed_domains: null },
});

describe('send core: who sends', () => {
  it('resolves an API key within the one context read, then remembers its account', async () => {
    const { deps, world } = fakeSendDeps({ keys: new Map([['hash-a', keyLookup()]]) });
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    await sendEmail(deps, { apiKeyHash: 'hash-a' }, request());
    expect(world.contextReads).toHaveLength(2);
    expect(world.contextReads[0]).toMatchObject({ accountId: 'acc_1', apiKeyHash: 'hash-a' });
    expect(world.accepted).toHaveLength(2);
  });

  it('refuses a revoked key at once, even when its account is remembered', async () => {
    const { deps, world } = fakeSendDeps({ keys: new Map([['hash-b', keyLookup()]]) });
    await sendEmail(deps, { apiKeyHash: 'hash-b' }, request());
    world.keys.delete('hash-b');
    await expect(sendEmail(deps, { apiKeyHash: 'hash-b' }, request())).rejects.toMatchObject({ status: 401 });
    expect(world.accepted).toHaveLength(1);
  });

  it('refuses a key without emails:send with 403 insufficient_scope', async () => {
    const { deps } = fakeSendDeps({ keys: new Map([['hash-c', keyLookup({ scopes: ['domains:write'] })]]) });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-c' }, request())).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('answers 403 tenants_not_enabled when a tenant is named on an account without tenants', async () => {
    const { deps } = fakeSendDeps();
    await expect(sendEmail(deps, { principal: principal() }, request({ tenant: 'acme' }))).rejects.toMatchObject({
      status: 403,
      code: 'tenants_not_enabled',
    });
  });
});

describe('send core: policy', () => {
  it('refuses an unverified domain of the account with 403 domain_not_verified and its status', async () => {
    const { deps } = fakeSendDeps({ domains: new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'pending' as const }]]) });
    await expect(sendEmail(deps, { principal: principal() }, request({ from: { email: 'a@acme.test' } }))).rejects.toMatchObject({
      status: 403,
      code: 'domain_not_verified',
      details: { status: 'pending', domain_id: 'dom_1' },
    });
  });

  it("refuses another account's verified domain as not verified for this account", async () => {
    const { deps } = fakeSendDeps({
      domains: new Map([['acme.test', { id: 'dom_1', account_id: 'acc_other', status: 'verified' as const }]]),
    });
    await expect(sendEmail(deps, { principal: principal() }, request({ from: { email: 'a@acme.test' } }))).rejects.toMatchObject({
      code: 'domain_not_verified',
    });
  });

  it('keeps a suppressed send as a failed email carrying its email.suppressed details (the outbox publishes it) and answers 422 naming it', async () => {
    const { deps, world } = fakeSendDeps({ suppressed: new Set(['owner@example.com']) });
    const attempt = sendEmail(deps, { principal: principal() }, request());
    await expect(attempt).rejects.toMatchObject({ status: 422, details: { suppressed: ['owner@example.com'] } });
    expect(world.created).toHaveLength(1);
    expect(world.createdInternals.get(world.created[0]!)).toEqual({
      suppressed_event: { suppressed: ['owner@example.com'], reason: 'suppressed' },
    });
    // No publish on the request path (SendDeps has no event publisher): the stored email.suppressed_event is published by the outbox relay.
    expect(world.accepted).toHaveLength(0);
  });

  it('counts each unique recipient once and reads no opt-outs for transactional mail', async () => {
    const { deps, world } = fakeSendDeps();
    await sendEmail(
      deps,
      { principal: principal({ payment_method: true }) },
      request({ to: ['owner@example.com', 'OWNER@example.com'], cc: ['owner@example.com'] }),
    );
    expect(world.accepted[0]!.count).toBe(1);
    expect(world.contextReads[0]!.optOutCategory).toBeUndefined();
  });

  it('splits reservations: capped (free plan, sandbox) in the transaction, uncapped deferred to the outbox', async () => {
    const { deps, world } = fakeSendDeps();
    await sendEmail(deps, { principal: principal({ plan: 'pro', payment_method: true }) }, request());
    const accepted = world.accepted[0]!;
    expect(accepted.capped.map((r) => `${r.scope}/${r.period}`)).toEqual(['SANDBOX/DAY', 'SANDBOX/MONTH']);
    expect(accepted.uncapped.map((r) => `${r.scope}/${r.period}`)).toEqual(['PLAN/DAY', 'PLAN/MONTH']);
  });

  it('answers 429 plan_limit with the limit the store reports and what was used', async () => {
    const { deps } = fakeSendDeps({
      acceptOutcome: (req) => ({ kind: 'limit_reached', reservation: req.capped[0]!, used: 100 }),
    });
    await expect(sendEmail(deps, { principal: principal() }, request())).rejects.toMatchObject({
      status: 429,
      code: 'plan_limit',
      details: { limit: 100, used: 100, requested: 1, period: 'day', scope: 'plan' },
    });
  });
});

describe('send core: idempotency', () => {
  const idempotency = { key: 'k-1', fingerprint: 'f-1' };

  it('replays the stored answer without accepting again, from the record read with the context', async () => {
    const { deps, world } = fakeSendDeps();
    const first = await sendEmail(deps, { principal: principal() }, request(), { idempotency });
    const second = await sendEmail(deps, { principal: principal() }, request(), { idempotency });
    expect(second).toEqual(first);
    expect(world.accepted).toHaveLength(1);
  });

  it('answers 409 for another request under the same key', async () => {
    const { deps } = fakeSendDeps();
    await sendEmail(deps, { principal: principal() }, request(), { idempotency });
    await expect(
      sendEmail(deps, { principal: principal() }, request(), { idempotency: { key: 'k-1', fingerprint: 'other' } }),
    ).rejects.toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });

  it('replays the winner when a concurrent request took the key first', async () => {
    const { deps, world } = fakeSendDeps({
      acceptOutcome: () => {
        world.idempotency.set('k-1', {
          fingerprint: 'f-1',
          status: 200,
          body: { id: 'msg_winner', status: 'sent' },
          created_at: NOW.toISOString(),
        });
        return { kind: 'idempotency_taken' };
      },
    });
    expect(await sendEmail(deps, { principal: principal() }, request(), { idempotency })).toEqual({ id: 'msg_winner', status: 'sent' });
  });
});

describe('send core: scheduling', () => {
  it('stores nothing when the scheduler is down (503): the schedule is created before the email', async () => {
    const { deps, world } = fakeSendDeps({ schedulerDown: true });
    const at = new Date(NOW.getTime() + 3600_000).toISOString();
    await expect(sendEmail(deps, { principal: principal() }, request({ scheduled_at: at }))).rejects.toMatchObject({ status: 503 });
    expect(world.accepted).toHaveLength(0);
    expect(world.created).toHaveLength(0);
  });

  it('schedules then stores a scheduled send, publishing nothing on the request path (email.scheduled comes from the outbox)', async () => {
    const { deps, world } = fakeSendDeps();
    const at = new Date(NOW.getTime() + 3600_000).toISOString();
    const result = await sendEmail(deps, { principal: principal() }, request({ scheduled_at: at }));
    expect(result.status).toBe('scheduled');
    expect(world.scheduled).toEqual([result.id]);
    expect(world.accepted[0]!.email.status).toBe('scheduled');
    expect(world.unscheduled).toEqual([]);
  });

  it('removes the schedule when the scheduled send is then refused (limit reached)', async () => {
    const { deps, world } = fakeSendDeps();
    deps.emails.accept = async () =>
      ({ kind: 'limit_reached', reservation: { scope: 'PLAN', period: 'DAY', periodValue: '2026-11-22', limit: 100 }, used: 100 }) as never;
    const at = new Date(NOW.getTime() + 3600_000).toISOString();
    await expect(sendEmail(deps, { principal: principal() }, request({ scheduled_at: at }))).rejects.toMatchObject({ status: 429 });
    expect(world.unscheduled).toEqual(world.scheduled);
    expect(world.scheduled).toHaveLength(1);
  });

  it('answers sent for an immediate send without any hand-off call (the outbox takes it)', async () => {
    const { deps, world } = fakeSendDeps({ schedulerDown: true });
    expect((await sendEmail(deps, { principal: principal() }, request())).status).toBe('sent');
    expect(world.accepted[0]!.email.status).toBe('queued');
  });
});

describe('send core: templates', () => {
  const published = {
    id: 'tpl_1',
    alias: 'welcome',
    version: 3,
    subject: 'Hi {{name}}',
    html: '<p>{{name}}</p>',
    text: null,
    from: `News <news@${SANDBOX}>`,
    reply_to: ['help@example.com'],
    category: 'product' as const,
    unsubscribe_enabled: true,
    variables: [{ key: 'name', type: 'string' as const }],
  };
  const templateRequest = (variables: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
    ({ to: ['owner@example.com'], template: { id: 'welcome', variables }, ...overrides }) as never;

  it('renders the published version into the accepted email: from, reply_to, category, unsubscribe and the version used', async () => {
    const { deps, world } = fakeSendDeps({ templates: new Map([['welcome', published]]) });
    await sendEmail(deps, { principal: principal() }, templateRequest({ name: '<b>' }));
    expect(world.templateReads).toEqual(['welcome']);
    const [accepted] = world.accepted;
    expect(accepted!.email).toMatchObject({
      from: `News <news@${SANDBOX}>`,
      subject: 'Hi <b>',
      reply_to: ['help@example.com'],
      category: 'product',
      unsubscribe: true,
      template: { alias: 'welcome', version: 3 },
    });
    expect(accepted!.body).toEqual({ inline: { html: '<p>&lt;b&gt;</p>' } });
    // The product category's opt-outs were read with the context.
    expect(world.contextReads[0]).toMatchObject({ optOutCategory: 'product' });
  });

  it('lets the request override subject, category and unsubscribe', async () => {
    const { deps, world } = fakeSendDeps({ templates: new Map([['welcome', published]]) });
    await sendEmail(
      deps,
      { principal: principal() },
      templateRequest({ name: 'A' }, { subject: 'Re: {{name}}', category: 'transactional', unsubscribe: false }),
    );
    expect(world.accepted[0]!.email).toMatchObject({ subject: 'Re: A', category: 'transactional' });
    expect(world.accepted[0]!.email.unsubscribe).toBeUndefined();
  });

  it('refuses a missing variable, an unknown template and an unpublished one with 400 naming the field, accepting nothing', async () => {
    const { deps, world } = fakeSendDeps({
      templates: new Map<string, typeof published | 'draft'>([
        ['welcome', published],
        ['draft-only', 'draft'],
      ]),
    });
    await expect(sendEmail(deps, { principal: principal() }, templateRequest({}))).rejects.toMatchObject({
      status: 400,
      details: { fields: [{ field: 'template.variables.name', message: expect.stringContaining('{{name}}') }] },
    });
    await expect(
      sendEmail(deps, { principal: principal() }, { to: ['owner@example.com'], template: { id: 'nope' } } as never),
    ).rejects.toMatchObject({ status: 400, details: { fields: [{ field: 'template.id' }] } });
    await expect(
      sendEmail(deps, { principal: principal() }, { to: ['owner@example.com'], template: { id: 'draft-only' } } as never),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('no published version') });
    expect(world.accepted).toHaveLength(0);
  });

  it('checks the caller before reporting a template problem: 401 for a revoked key', async () => {
    const { deps, world } = fakeSendDeps({ keys: new Map([['hash-t', keyLookup()]]) });
    await sendEmail(deps, { apiKeyHash: 'hash-t' }, request());
    // Same loader (same process): the key's account is remembered, the key itself is gone.
    world.keys.delete('hash-t');
    await expect(
      sendEmail(deps, { apiKeyHash: 'hash-t' }, { to: ['owner@example.com'], template: { id: 'nope' } } as never),
    ).rejects.toMatchObject({ status: 401 });
    expect(world.templateReads).toEqual(['nope']);
  });
});

describe('send core: validate: true', () => {
  it('refuses a recipient whose domain takes no mail with 422 naming it, and stores nothing', async () => {
    const { deps, world } = fakeSendDeps({
      keys: new Map([['hash-v1', keyLookup()]]),
      accounts: new Map([['acc_1', account({ payment_method: true })]]),
      domains: new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const }]]),
      mailHosts: new Map([['null-mx.example', { result: 'null_mx', hosts: [] }]]),
    });
    const sent = sendEmail(
      deps,
      { apiKeyHash: 'hash-v1' },
      request({ from: { email: 'a@acme.test' }, to: ['jane@example.com'], cc: ['Gone@Null-MX.example'], validate: true }),
    );
    await expect(sent).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
      details: { recipients: [{ email: 'gone@null-mx.example', reason: 'null_mx' }] },
    });
    expect(world.accepted).toHaveLength(0);
    expect(world.created).toHaveLength(0);
  });

  it('sends to a deliverable recipient, and looks nothing up without validate', async () => {
    const { deps, world } = fakeSendDeps({ keys: new Map([['hash-v2', keyLookup()]]) });
    await sendEmail(deps, { apiKeyHash: 'hash-v2' }, request({ validate: true }));
    expect(world.mailHostLookups).toEqual(['example.com']);
    await sendEmail(deps, { apiKeyHash: 'hash-v2' }, request());
    expect(world.mailHostLookups).toEqual(['example.com']);
    expect(world.accepted).toHaveLength(2);
  });

  it('counts each recipient against the validation allowance, then looks the domains up', async () => {
    const { deps, world } = fakeSendDeps({
      domains: new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const }]]),
    });
    const to = ['a@one.example', 'b@one.example', 'c@two.example'];
    await sendEmail(
      deps,
      { principal: principal({ payment_method: true }) },
      request({ from: { email: 'hi@acme.test' }, to, validate: true }),
    );
    expect(world.allowanceHits).toEqual([3]);
    expect(world.mailHostLookups.sort()).toEqual(['one.example', 'two.example']);
    expect(world.accepted).toHaveLength(1);
  });
});

/** The sending rules come before any lookup (issue 47): a refused send makes no DNS query and counts nothing. */
describe('send core: validate: true runs after the whole sending policy', () => {
  const strangers = Array.from({ length: 20 }, (_, i) => `x@random-${i}.example`);
  const verified = new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'verified' as const }]]);
  const pending = new Map([['acme.test', { id: 'dom_1', account_id: 'acc_1', status: 'pending' as const }]]);

  const refusals: [string, Parameters<typeof fakeSendDeps>[0], Parameters<typeof principal>[0], Partial<SendRequest>, object][] = [
    [
      'the sandbox sender to other addresses: 403 recipient_not_allowed',
      {},
      {},
      { to: strangers },
      { status: 403, code: 'recipient_not_allowed', details: { reason: 'sandbox_sender' } },
    ],
    [
      'a verified domain before production is unlocked: 403 recipient_not_allowed',
      { domains: verified },
      {},
      { from: { email: 'a@acme.test' }, to: strangers },
      { status: 403, code: 'recipient_not_allowed', details: { reason: 'production_not_unlocked' } },
    ],
    [
      'an unverified domain: 403 domain_not_verified',
      { domains: pending },
      { payment_method: true },
      { from: { email: 'a@acme.test' }, to: strangers },
      { status: 403, code: 'domain_not_verified' },
    ],
    [
      'a suppressed recipient: 422, kept as a failed email',
      { domains: verified, suppressed: new Set(['x@random-3.example']) },
      { payment_method: true },
      { from: { email: 'a@acme.test' }, to: strangers },
      { status: 422, details: { suppressed: ['x@random-3.example'] } },
    ],
    [
      "the plan's daily cap reached: 429 plan_limit",
      { domains: verified, shardCounts: new Map([['PLAN/DAY', [13, 13, 13, 13, 12, 12, 12, 12]]]) },
      { payment_method: true },
      { from: { email: 'a@acme.test' }, to: strangers },
      { status: 429, code: 'plan_limit', details: { period: 'day', used: 100, requested: 20 } },
    ],
    [
      'the validation allowance spent: 429 rate_limited',
      { domains: verified, allowanceLeft: 19 },
      { payment_method: true },
      { from: { email: 'a@acme.test' }, to: strangers },
      { status: 429, code: 'rate_limited' },
    ],
  ];

  it.each(refusals)('%s, and no lookup', async (_name, world, owner, fields, answer) => {
    const { deps, world: w } = fakeSendDeps(world);
    await expect(sendEmail(deps, { principal: principal(owner) }, request({ ...fields, validate: true }))).rejects.toMatchObject(answer);
    expect(w.mailHostLookups).toEqual([]);
    expect(w.accepted).toHaveLength(0);
  });

  it('counts nothing against the allowance for a send the policy refused', async () => {
    const { deps, world } = fakeSendDeps();
    await expect(sendEmail(deps, { principal: principal() }, request({ to: strangers, validate: true }))).rejects.toMatchObject({
      code: 'recipient_not_allowed',
    });
    expect(world.allowanceHits).toEqual([]);
    expect(world.shardReads).toEqual([]);
  });

  it("reads the capped counters before looking up, and a tenant's daily_limit refuses with 429 daily_ramp_limit", async () => {
    const t = tenant({ daily_limit: 10 });
    const { deps, world } = fakeSendDeps({
      domains: verified,
      tenants: new Map([[t.id, storedTenant(t)]]),
      shardCounts: new Map([[`TENANT:${t.id}:all/DAY`, [2, 2, 1, 1, 1, 1, 1, 1]]]),
    });
    const attempt = sendEmail(
      deps,
      { principal: principal({ payment_method: true, plan: 'scale', tenants_enabled: true }) },
      request({ from: { email: 'a@acme.test' }, to: ['a@one.example'], tenant: 'acme', validate: true }),
    );
    await expect(attempt).rejects.toMatchObject({ status: 429, code: 'daily_ramp_limit', details: { limited_by: 'daily_limit' } });
    expect(world.mailHostLookups).toEqual([]);
  });
});
