/**
 * /automations over HTTP against the running local cloud: CRUD, listing (pagination, status filter),
 * activate/pause (idempotent), racing edits and activations, validation envelopes naming steps,
 * scopes, tenant keys and account isolation; and the pointers POST /events will read
 * (activeByTrigger / activeByCancelEvent) against DynamoDB Local.
 */
import { api, newAccount, stack, type TestAccount } from './harness/stack';
import { createTenant } from './harness/tenants';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
let counter = 0;
const uniqueEvent = (prefix = 'evt') => `${prefix}.${Date.now().toString(36)}${(counter++).toString(36)}`;

const welcomeSteps = [
  {
    key: 'welcome',
    type: 'send_email',
    from: 'Acme <hello@example.com>',
    subject: 'Welcome, {{event.data.first_name}}',
    html: '<p>Hi {{event.data.first_name}}</p>',
  },
  { key: 'wait', type: 'delay', duration: '2 days' },
  { key: 'is-pro', type: 'condition', field: 'event.data.plan', operator: 'eq', value: 'pro' },
  { key: 'tips', type: 'send_email', template: { id: 'pro-tips', variables: { name: '{{event.data.first_name}}' } } },
];

const definition = (body: Record<string, unknown> = {}) => ({
  name: 'Welcome series',
  trigger: { event: uniqueEvent('user.created') },
  steps: welcomeSteps,
  ...body,
});

async function create(account: TestAccount, body: Record<string, unknown> = definition()) {
  const response = await api('POST', '/automations', { key: account.key, body });
  expect([response.status, response.body.error]).toEqual([201, undefined]);
  return response.body.automation as Record<string, any> & { id: string };
}

async function act(account: TestAccount, id: string, action: string) {
  return api('POST', `/automations/${id}`, { key: account.key, body: { action } });
}

const fieldsOf = (response: { body: any }) => response.body.error.details.fields.map((f: { field: string }) => f.field);

describe('/automations', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount();
  });

  it('creates a draft (201), reads, edits (version + 1), deletes it', async () => {
    const body = definition({ trigger: { event: 'signup.completed', cancel_on_events: ['user.deleted'] } });
    const created = await api('POST', '/automations', { key: account.key, body });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      automation: {
        object: 'automation',
        id: expect.stringMatching(/^auto_[0-9A-HJKMNP-TV-Z]{26}$/),
        name: 'Welcome series',
        status: 'draft',
        trigger: { event: 'signup.completed', cancel_on_events: ['user.deleted'] },
        steps: [
          { ...welcomeSteps[0], to: ['{{event.email}}'] },
          welcomeSteps[1],
          welcomeSteps[2],
          { ...welcomeSteps[3], to: ['{{event.email}}'] },
        ],
        version: 1,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        activated_at: null,
        allowed_domains: null,
      },
    });
    expect(created.text).not.toContain('account_id');
    const id = created.body.automation.id;

    const read = await api('GET', `/automations/${id}`, { key: account.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const patched = await api('PATCH', `/automations/${id}`, { key: account.key, body: { name: 'Welcome v2', steps: [welcomeSteps[1]] } });
    expect(patched.status).toBe(200);
    expect(patched.body.automation).toMatchObject({
      id,
      name: 'Welcome v2',
      version: 2,
      status: 'draft',
      steps: [welcomeSteps[1]],
      trigger: body.trigger,
    });
    expect((await api('GET', `/automations/${id}`, { key: account.key })).body).toEqual(patched.body);
    // The same definition again writes nothing.
    const same = await api('PATCH', `/automations/${id}`, { key: account.key, body: { name: 'Welcome v2' } });
    expect(same.body.automation).toEqual(patched.body.automation);

    const deleted = await api('DELETE', `/automations/${id}`, { key: account.key });
    expect([deleted.status, deleted.body]).toEqual([200, { ok: true }]);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE'], ['POST', { action: 'activate' }]] as const) {
      const response = await api(method, `/automations/${id}`, { key: account.key, body });
      expect([method, response.status, response.body.error.code]).toEqual([method, 404, 'not_found']);
    }
    expect((await api('GET', '/automations/auto_nope', { key: account.key })).status).toBe(404);
  });

  it('creates an active automation when asked (validated like an activation)', async () => {
    const automation = await create(account, definition({ status: 'active' }));
    expect(automation).toMatchObject({ status: 'active', activated_at: automation.created_at });
    const refused = await api('POST', '/automations', { key: account.key, body: definition({ status: 'paused' }) });
    expect([refused.status, fieldsOf(refused)]).toEqual([400, ['status']]);
  });

  it('activates and pauses; activating twice is idempotent; a draft cannot be paused', async () => {
    const { id } = await create(account);
    const draftPause = await act(account, id, 'pause');
    expect([draftPause.status, draftPause.body.error.code]).toEqual([409, 'conflict']);

    const active = await act(account, id, 'activate');
    expect(active.status).toBe(200);
    expect(active.body.automation).toMatchObject({ status: 'active', version: 1, activated_at: expect.stringMatching(TIMESTAMP) });
    const again = await act(account, id, 'activate');
    expect(again.body.automation).toEqual(active.body.automation);

    const paused = await act(account, id, 'pause');
    expect(paused.body.automation).toMatchObject({ status: 'paused', activated_at: active.body.automation.activated_at });
    expect((await act(account, id, 'pause')).body.automation).toEqual(paused.body.automation);
    expect((await act(account, id, 'activate')).body.automation.status).toBe('active');

    for (const body of [{ action: 'stop' }, {}, { action: 'activate', extra: 1 }]) {
      const bad = await api('POST', `/automations/${id}`, { key: account.key, body });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_error']);
    }
    const status = await api('PATCH', `/automations/${id}`, { key: account.key, body: { status: 'paused' } });
    expect([status.status, fieldsOf(status)]).toEqual([400, ['status']]);
  });

  it('edits of an active automation apply at once; racing edits and activations keep both', async () => {
    for (let round = 0; round < 4; round++) {
      const { id } = await create(account);
      const [patched, activated] = await Promise.all([
        api('PATCH', `/automations/${id}`, { key: account.key, body: { name: `raced ${round}` } }),
        act(account, id, 'activate'),
      ]);
      expect([patched.status, activated.status]).toEqual([200, 200]);
      const final = (await api('GET', `/automations/${id}`, { key: account.key })).body.automation;
      expect(final).toMatchObject({ name: `raced ${round}`, status: 'active', version: 2 });
    }
    const { id } = await create(account, definition({ status: 'active' }));
    const edits = await Promise.all(
      Array.from({ length: 4 }, (_, i) => api('PATCH', `/automations/${id}`, { key: account.key, body: { name: `editor ${i}` } })),
    );
    expect(edits.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const final = (await api('GET', `/automations/${id}`, { key: account.key })).body.automation;
    expect(final.version).toBe(5);
    expect(final.status).toBe('active');
  });

  it('lists newest first with pagination and a status filter', async () => {
    const owner = await newAccount();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await create(owner, definition({ name: `n${i}` }))).id);
    await act(owner, made[1]!, 'activate');
    await act(owner, made[3]!, 'activate');
    await act(owner, made[3]!, 'pause');

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api('GET', `/automations?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: owner.key });
      expect(page.status).toBe(200);
      expect(page.body.automations.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.automations.map((a: { id: string }) => a.id));
      expect(page.body.has_more).toBe(page.body.next_cursor !== null);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());

    const ids = async (status: string) =>
      (await api('GET', `/automations?status=${status}&limit=100`, { key: owner.key })).body.automations.map((a: { id: string }) => a.id);
    expect(await ids('active')).toEqual([made[1]]);
    expect(await ids('paused')).toEqual([made[3]]);
    expect(await ids('draft')).toEqual([made[4], made[2], made[0]]);
    const filtered = await api('GET', '/automations?status=draft&limit=1', { key: owner.key });
    expect(filtered.body).toMatchObject({ automations: [{ id: made[4] }], has_more: true });
    const next = await api('GET', `/automations?status=draft&limit=2&cursor=${filtered.body.next_cursor}`, { key: owner.key });
    expect(next.body.automations.map((a: { id: string }) => a.id)).toEqual([made[2], made[0]]);

    for (const query of ['status=running', 'limit=0', 'limit=101', 'cursor=garbage']) {
      const bad = await api('GET', `/automations?${query}`, { key: owner.key });
      expect([query, bad.status]).toEqual([query, 400]);
    }
  });

  it('answers 400 validation_error naming each bad step', async () => {
    const cases: [string, unknown[], string[]][] = [
      ['unknown type', [welcomeSteps[1], { key: 'sms', type: 'send_sms' }], ['steps.1.type']],
      [
        'cycle',
        [
          { key: 'a', type: 'delay', duration: '1 day' },
          { key: 'b', type: 'delay', duration: '1 day', next: 'a' },
        ],
        ['steps.1.next'],
      ],
      ['delay over 365 days', [{ key: 'a', type: 'delay', duration: '366 days' }], ['steps.0.duration']],
      ['bad placeholder', [{ ...welcomeSteps[0], subject: 'Hi {{event.firstname}}' }], ['steps.0.subject']],
      ['missing next target', [{ key: 'a', type: 'delay', duration: '1 day', next: 'missing' }], ['steps.0.next']],
      ['condition without value', [{ key: 'c', type: 'condition', field: 'event.data.plan', operator: 'eq' }], ['steps.0.value']],
      ['wait over 30 days', [{ key: 'w', type: 'wait_for_event', event: 'x', timeout: '31 days' }], ['steps.0.timeout']],
      [
        'several at once',
        [
          { key: 'x', type: 'sms' },
          { key: 'd', type: 'delay', duration: 'later' },
        ],
        ['steps.0.type', 'steps.1.duration'],
      ],
    ];
    for (const [what, steps, fields] of cases) {
      const response = await api('POST', '/automations', { key: account.key, body: definition({ steps }) });
      expect([what, response.status, response.body.error.code, fieldsOf(response)]).toEqual([what, 400, 'validation_error', fields]);
    }
    const unknown = await api('POST', '/automations', {
      key: account.key,
      body: definition({ steps: [{ key: 'sms', type: 'send_sms' }] }),
    });
    expect(unknown.body.error.details.fields[0].message).toBe(
      'unknown step type "send_sms": one of send_email, delay, wait_for_event, condition',
    );

    // PATCH validates the merged definition: a new trigger against the stored steps, new steps against the trigger.
    const { id } = await create(account);
    const cycle = await api('PATCH', `/automations/${id}`, {
      key: account.key,
      body: { steps: [{ key: 'a', type: 'delay', duration: '1 day', next: 'a' }] },
    });
    expect([cycle.status, fieldsOf(cycle)]).toEqual([400, ['steps.0.next']]);
    const self = await api('PATCH', `/automations/${id}`, { key: account.key, body: { trigger: { event: 'x', cancel_on_events: ['x'] } } });
    expect([self.status, fieldsOf(self)]).toEqual([400, ['trigger.cancel_on_events.0']]);
    expect((await api('GET', `/automations/${id}`, { key: account.key })).body.automation.version).toBe(1);
    for (const raw of ['', '{', '[]']) {
      expect(
        (await api('POST', '/automations', { key: account.key, rawBody: raw, headers: { 'content-type': 'application/json' } })).status,
      ).toBe(400);
    }
  });

  it('refuses a key limited to a tenant (403 forbidden) on every endpoint', async () => {
    const owner = await newAccount({ plan: 'scale', paymentMethod: true, tenants: true });
    const { id } = await create(owner);
    const tenant = await createTenant(owner, {}, 'auto');
    const response = await api('POST', '/api-keys', {
      key: owner.key,
      body: { name: 'tenant', scopes: ['full'], tenant: tenant.external_id },
    });
    const key = response.body.secret;
    const calls: [string, string, unknown?][] = [
      ['POST', '/automations', definition()],
      ['POST', '/automations', { not: 'valid' }],
      ['GET', '/automations'],
      ['GET', `/automations/${id}`],
      ['PATCH', `/automations/${id}`, { name: 'x' }],
      ['DELETE', `/automations/${id}`],
      ['POST', `/automations/${id}`, { action: 'activate' }],
    ];
    for (const [method, path, body] of calls) {
      const answer = await api(method, path, { key, body });
      expect([method, path, answer.status, answer.body.error.code]).toEqual([method, path, 403, 'forbidden']);
    }
    expect((await api('GET', `/automations/${id}`, { key: owner.key })).body.automation.status).toBe('draft');
  });

  it('needs full to write (403 insufficient_scope); account:read may read', async () => {
    const { id } = await create(account);
    const keyWith = async (scopes: string[]) =>
      (await api('POST', '/api-keys', { key: account.key, body: { name: 'scoped', scopes } })).body.secret as string;
    const reader = await keyWith(['account:read']);
    const refused = await api('POST', '/automations', { key: reader, body: definition() });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'insufficient_scope', details: { required_scopes: ['full', 'mail:admin'] } });
    for (const [method, body] of [['PATCH', { name: 'x' }], ['DELETE'], ['POST', { action: 'activate' }]] as const) {
      expect((await api(method, `/automations/${id}`, { key: reader, body })).body.error.code).toBe('insufficient_scope');
    }
    expect((await api('GET', '/automations', { key: reader })).status).toBe(200);
    expect((await api('GET', `/automations/${id}`, { key: reader })).status).toBe(200);
    const templatesWriter = await keyWith(['templates:write']);
    expect((await api('POST', '/automations', { key: templatesWriter, body: definition() })).body.error.code).toBe('insufficient_scope');
    expect((await api('GET', '/automations', { key: templatesWriter })).body.error.code).toBe('insufficient_scope');
    expect((await api('GET', '/automations', {})).status).toBe(401);
  });

  it("answers 404 for another account's automation", async () => {
    const { id } = await create(account);
    const other = await newAccount();
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE'], ['POST', { action: 'activate' }]] as const) {
      const response = await api(method, `/automations/${id}`, { key: other.key, body });
      expect([method, response.status, response.body.error.code]).toEqual([method, 404, 'not_found']);
    }
    expect((await api('GET', '/automations', { key: other.key })).body.automations).toEqual([]);
    expect((await api('GET', `/automations/${id}`, { key: account.key })).body.automation.status).toBe('draft');
  });

  it('keeps at most 100 automations per account', async () => {
    const owner = await newAccount();
    const made = await Promise.all(Array.from({ length: 100 }, () => api('POST', '/automations', { key: owner.key, body: definition() })));
    expect(made.every((r) => r.status === 201)).toBe(true);
    const over = await api('POST', '/automations', { key: owner.key, body: definition() });
    expect([over.status, over.body.error.code, over.body.error.details]).toEqual([
      403,
      'limit_exceeded',
      { limit: 100, resource: 'automations' },
    ]);
    expect((await api('DELETE', `/automations/${made[0]!.body.automation.id}`, { key: owner.key })).status).toBe(200);
    expect((await api('POST', '/automations', { key: owner.key, body: definition() })).status).toBe(201);
  });

  describe('finding active automations by event (the repository POST /events reads)', () => {
    const repo = () => stack().services.automations;
    const idsOf = (list: { id: string }[]) => list.map((a) => a.id);

    it('finds active automations by trigger and by cancel event; never drafts, paused or deleted ones', async () => {
      const owner = await newAccount();
      const trigger = uniqueEvent('signup');
      const cancel = uniqueEvent('purchase');
      const body = definition({ trigger: { event: trigger, cancel_on_events: [cancel, 'user.deleted'] } });
      const active = await create(owner, { ...body, status: 'active' });
      const draft = await create(owner, body);
      const paused = await create(owner, { ...body, status: 'active' });
      await act(owner, paused.id, 'pause');
      const deleted = await create(owner, { ...body, status: 'active' });
      await api('DELETE', `/automations/${deleted.id}`, { key: owner.key });

      const found = await repo().activeByTrigger(owner.id, trigger);
      expect(idsOf(found)).toEqual([active.id]);
      expect(found[0]).toMatchObject({ status: 'active', version: 1, trigger: { event: trigger }, steps: expect.any(Array) });
      expect(idsOf(await repo().activeByCancelEvent(owner.id, cancel))).toEqual([active.id]);
      expect(idsOf(await repo().activeByCancelEvent(owner.id, 'user.deleted'))).toEqual([active.id]);
      expect(await repo().activeByTrigger(owner.id, cancel)).toEqual([]);
      expect(await repo().activeByCancelEvent(owner.id, trigger)).toEqual([]);
      // Another account's events find nothing of this one.
      const other = await newAccount();
      expect(await repo().activeByTrigger(other.id, trigger)).toEqual([]);

      // Activating the draft and re-activating the paused one make them found, in id order.
      await act(owner, draft.id, 'activate');
      await act(owner, paused.id, 'activate');
      expect(idsOf(await repo().activeByTrigger(owner.id, trigger))).toEqual([active.id, draft.id, paused.id]);
      await act(owner, draft.id, 'pause');
      expect(idsOf(await repo().activeByTrigger(owner.id, trigger))).toEqual([active.id, paused.id]);
      await api('DELETE', `/automations/${paused.id}`, { key: owner.key });
      expect(idsOf(await repo().activeByTrigger(owner.id, trigger))).toEqual([active.id]);
      expect(idsOf(await repo().activeByCancelEvent(owner.id, cancel))).toEqual([active.id]);
    });

    it('follows trigger edits of an active automation: the old events no longer find it', async () => {
      const owner = await newAccount();
      const before = uniqueEvent('old');
      const after = uniqueEvent('new');
      const cancelBefore = uniqueEvent('cancel-old');
      const cancelAfter = uniqueEvent('cancel-new');
      const automation = await create(
        owner,
        definition({ status: 'active', trigger: { event: before, cancel_on_events: [cancelBefore] } }),
      );
      const patched = await api('PATCH', `/automations/${automation.id}`, {
        key: owner.key,
        body: { trigger: { event: after, cancel_on_events: [cancelAfter] } },
      });
      expect(patched.body.automation).toMatchObject({
        version: 2,
        status: 'active',
        trigger: { event: after, cancel_on_events: [cancelAfter] },
      });
      expect(await repo().activeByTrigger(owner.id, before)).toEqual([]);
      expect(await repo().activeByCancelEvent(owner.id, cancelBefore)).toEqual([]);
      const found = await repo().activeByTrigger(owner.id, after);
      expect(idsOf(found)).toEqual([automation.id]);
      expect(found[0]!.version).toBe(2);
      expect(idsOf(await repo().activeByCancelEvent(owner.id, cancelAfter))).toEqual([automation.id]);
      // Steps-only edits keep it found under its trigger.
      await api('PATCH', `/automations/${automation.id}`, { key: owner.key, body: { steps: [welcomeSteps[1]] } });
      expect((await repo().activeByTrigger(owner.id, after))[0]).toMatchObject({ version: 3, steps: [welcomeSteps[1]] });
      // A paused automation's trigger edit writes no pointer.
      await act(owner, automation.id, 'pause');
      const third = uniqueEvent('third');
      await api('PATCH', `/automations/${automation.id}`, { key: owner.key, body: { trigger: { event: third } } });
      expect(await repo().activeByTrigger(owner.id, third)).toEqual([]);
      await act(owner, automation.id, 'activate');
      expect(idsOf(await repo().activeByTrigger(owner.id, third))).toEqual([automation.id]);
      expect(await repo().activeByTrigger(owner.id, after)).toEqual([]);
    });
  });
});
