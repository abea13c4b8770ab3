/**
 * The send-context loader with in-memory fakes of its ports: one read when its guesses are right, one
 * follow-up read (then remembered) when they are wrong, its own caches (a new loader knows nothing), the
 * one place of 401/403 before 400, and a legacy claim completed only when asked.
 */
import type { SendRequest } from '#shared/domain/emails/send-request';
import { SendContextLoader } from '#shared/usecases/send/send-context-loader';
import { account, fakeLoaderPorts, fakeWorld, keyLookup, NOW, SANDBOX, storedTenant, tenant, type World } from '../usecases/send-fakes';

const ACME = tenant({ default_from_domain: 'acme.test' });
const REBORN = tenant({ id: 'ten_01HZZZZZZZZZZZZZZZZZZZZZZC' });

const request = (overrides: Partial<SendRequest> = {}): SendRequest =>
  ({ from: { email: 'hi@acme.test' }, to: ['someone@example.com'], subject: 'Hello', text: 'hi', ...overrides }) as SendRequest;

function setup(overrides: Partial<World> = {}) {
  const world = fakeWorld({
    accounts: new Map([['acc_1', account({ plan: 'scale', payment_method: true, tenants_enabled: true })]]),
    keys: new Map([
      ['hash-account', keyLookup()],
      ['hash-read-only', keyLookup({ key_id: 'key_ro', scopes: ['domains:read'] })],
    ]),
    domains: new Map([['acme.test', { id: 'dom_acme', account_id: 'acc_1', status: 'verified' as const }]]),
    ...overrides,
  });
  world.tenants.set(ACME.id, storedTenant(ACME));
  return { world, loader: new SendContextLoader(fakeLoaderPorts(world)) };
}

const caller = { apiKeyHash: 'hash-account' };

describe('send-context loader: the read plan', () => {
  it('a right guess costs nothing: from the second send of a tenant on, ONE read holds its item, lists and claim', async () => {
    const { world, loader } = setup();
    await loader.load(caller, request({ tenant: 'acme' }), NOW);
    world.contextReads.length = 0;
    const facts = await loader.load(caller, request({ tenant: 'acme' }), NOW);
    expect(world.contextReads).toEqual([
      expect.objectContaining({ apiKeyHash: 'hash-account', fromDomain: 'acme.test', tenantExternalIds: ['acme'], tenantId: ACME.id }),
    ]);
    expect(world.tenantLookups).toEqual([]);
    expect(facts).toMatchObject({
      principal: { account: { id: 'acc_1' } },
      tenant: { tenant: { id: ACME.id } },
      sender: { domain: 'acme.test' },
      recipients: { addresses: ['someone@example.com'] },
    });
  });

  it("a wrong guess is corrected by ONE follow-up read of the right tenant's lists, and remembered for the next send", async () => {
    const { world, loader } = setup();
    await loader.load(caller, request({ tenant: 'acme' }), NOW);
    // acme deleted and re-created: same external_id, another id, with its own suppression list.
    world.tenants.delete(ACME.id);
    world.tenants.set(REBORN.id, storedTenant(REBORN));
    world.tenantSuppressed.set(REBORN.id, new Set(['someone@example.com']));
    world.contextReads.length = 0;
    const corrected = await loader.load(caller, request({ tenant: 'acme' }), NOW);
    expect(world.contextReads.map((read) => read.tenantId)).toEqual([ACME.id, REBORN.id]);
    expect(world.contextReads[1]).not.toHaveProperty('apiKeyHash', 'hash-account');
    expect(corrected.tenant?.tenant.id).toBe(REBORN.id);
    expect(corrected.recipients.suppressed).toEqual(['someone@example.com']);
    world.contextReads.length = 0;
    await loader.load(caller, request({ tenant: 'acme' }), NOW);
    expect(world.contextReads.map((read) => read.tenantId)).toEqual([REBORN.id]);
  });

  it("a bare from completed with another domain than guessed reads that domain's claim once more", async () => {
    const { world, loader } = setup();
    world.domains.set('mail.acme.test', { id: 'dom_mail', account_id: 'acc_1', status: 'verified' });
    await loader.load(caller, request({ from: { email: 'billing' }, tenant: 'acme' }), NOW);
    world.tenants.set(ACME.id, storedTenant({ ...ACME, default_from_domain: 'mail.acme.test' }));
    world.contextReads.length = 0;
    const facts = await loader.load(caller, request({ from: { email: 'billing' }, tenant: 'acme' }), NOW);
    expect(world.contextReads.map((read) => read.fromDomain)).toEqual(['acme.test', 'mail.acme.test']);
    expect(facts.sender).toMatchObject({
      from: { email: 'billing@mail.acme.test' },
      domain: 'mail.acme.test',
      owner: { account_id: 'acc_1' },
    });
  });

  it("leaves out the suppressions of recipients the door cleared for the same tenant's lists, and only those", async () => {
    const { world, loader } = setup();
    world.suppressed.add('gone@example.com');
    const two = request({ to: ['someone@example.com', 'gone@example.com'] });
    // The relay's RCPT TO found someone@ on no list (no tenant): the send does not look it up again.
    await loader.load(caller, two, NOW, undefined, { tenantId: null, addresses: ['someone@example.com'] });
    expect(world.contextReads.at(-1)).toMatchObject({ tenantId: null, clearOfSuppressions: ['someone@example.com'] });
    // Cleared for a tenant's lists while the send reads the account's only: everything is read.
    const other = await loader.load(caller, two, NOW, undefined, {
      tenantId: ACME.id,
      addresses: ['someone@example.com', 'gone@example.com'],
    });
    expect(world.contextReads.at(-1)).not.toHaveProperty('clearOfSuppressions');
    expect(other.recipients.suppressed).toEqual(['gone@example.com']);
  });

  it('hands over the idempotency record only when the request has a key', async () => {
    const record = { fingerprint: 'f', status: 200, body: { id: 'msg_1', status: 'sent' }, created_at: NOW.toISOString() };
    const { loader } = setup({ idempotency: new Map([['k-1', record]]) });
    expect((await loader.load(caller, request(), NOW, 'k-1')).idempotency).toEqual(record);
    expect((await loader.load(caller, request(), NOW, 'k-2')).idempotency).toBeNull();
    expect((await loader.load(caller, request(), NOW)).idempotency).toBeUndefined();
  });
});

describe('send-context loader: its caches', () => {
  it("a new loader has empty caches: the key's account and the tenant are learnt again", async () => {
    const { world, loader } = setup();
    await loader.load(caller, request({ tenant: 'acme' }), NOW);
    expect(loader.keyAccounts.of('hash-account')).toBe('acc_1');
    expect(world.keyLookups).toEqual(['hash-account']);

    const fresh = new SendContextLoader(fakeLoaderPorts(world));
    expect(fresh.keyAccounts.of('hash-account')).toBeUndefined();
    world.contextReads.length = 0;
    world.keyLookups.length = 0;
    await fresh.load(caller, request({ tenant: 'acme' }), NOW);
    // The key looked up first, the tenant's id not known yet: its lists take a second read.
    expect(world.keyLookups).toEqual(['hash-account']);
    expect(world.contextReads.map((read) => read.tenantId)).toEqual([null, ACME.id]);
  });

  it("remembers a key's account only, never its validity: a revoked key is refused at once", async () => {
    const { world, loader } = setup();
    await loader.load(caller, request(), NOW);
    world.keys.delete('hash-account');
    await expect(loader.load(caller, request(), NOW)).rejects.toMatchObject({ status: 401 });
    expect(world.keyLookups).toEqual(['hash-account']);
  });
});

describe('send-context loader: 401/403 before 400', () => {
  it('refuses an unknown key (401), a revoked one (401) and one without emails:send (403); a good key passes', async () => {
    const { world, loader } = setup();
    await expect(loader.refuseCallerFirst({ apiKeyHash: 'hash-nobody' }, NOW)).rejects.toMatchObject({
      status: 401,
      message: 'Invalid API key.',
    });
    await expect(loader.refuseCallerFirst({ apiKeyHash: 'hash-nobody', kind: 'smtp' }, NOW)).rejects.toMatchObject({
      status: 401,
      message: 'Invalid SMTP credential.',
    });
    await expect(loader.refuseCallerFirst({ apiKeyHash: 'hash-read-only' }, NOW)).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    world.contextReads.length = 0;
    await expect(loader.refuseCallerFirst(caller, NOW)).resolves.toBeUndefined();
    // One read of key and account, nothing else.
    expect(world.contextReads).toEqual([
      expect.objectContaining({ accountId: 'acc_1', apiKeyHash: 'hash-account', recipients: [], tenantId: null }),
    ]);
    world.keys.delete('hash-account');
    await expect(loader.refuseCallerFirst(caller, NOW)).rejects.toMatchObject({ status: 401 });
  });

  it('reads nothing for a caller its door resolved already', async () => {
    const { world, loader } = setup();
    const principal = {
      account: account(),
      credential: { kind: 'api_key' as const, id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
    };
    await expect(loader.refuseCallerFirst({ principal }, NOW)).resolves.toBeUndefined();
    expect(world.contextReads).toEqual([]);
  });

  it('answers a template problem only after the caller: 403 for a key without the scope, else the 400', async () => {
    const { loader } = setup();
    const broken = { to: ['someone@example.com'], template: { id: 'nope' } } as never;
    await expect(loader.load({ apiKeyHash: 'hash-read-only' }, broken, NOW)).rejects.toMatchObject({ status: 403 });
    await expect(loader.load(caller, broken, NOW)).rejects.toMatchObject({ status: 400, details: { fields: [{ field: 'template.id' }] } });
  });
});

describe('send-context loader: a legacy domain claim', () => {
  const legacy = () =>
    setup({
      domains: new Map([['acme.test', { id: 'dom_acme', account_id: 'acc_1', status: undefined }]]),
      domainItems: new Map([['dom_acme', { id: 'dom_acme', account_id: 'acc_1', status: 'verified' as const }]]),
    });

  it('is completed from the domain item only when the policy asks, and once', async () => {
    const { world, loader } = legacy();
    const facts = await loader.load(caller, request(), NOW);
    expect(world.domainReads).toEqual([]);
    expect(await facts.sender.domainFacts()).toEqual({ id: 'dom_acme', account_id: 'acc_1', status: 'verified' });
    await facts.sender.domainFacts();
    expect(world.domainReads).toEqual(['dom_acme']);
  });

  it('is completed at MAIL FROM too, in the same place; the sandbox reads no claim', async () => {
    const { world, loader } = legacy();
    const session = {
      principal: {
        account: account(),
        credential: { kind: 'smtp' as const, id: 'key_s', scopes: ['emails:send'], tenant: null, allowed_domains: null },
      },
      secretHash: 'hash-smtp',
    };
    world.keys.set('hash-smtp', keyLookup({ kind: 'smtp', key_id: 'key_s', scopes: ['emails:send'] }));
    expect(await loader.loadSender(session, 'acme.test', NOW)).toMatchObject({
      principal: { credential: { kind: 'smtp' } },
      domain: { status: 'verified' },
      owner: { account_id: 'acc_1' },
    });
    expect(world.domainReads).toEqual(['dom_acme']);
    expect(await loader.loadSender(session, SANDBOX, NOW)).toMatchObject({ domain: null, owner: null });
    expect(world.contextReads.map((read) => read.fromDomain)).toEqual(['acme.test', undefined]);
    world.keys.delete('hash-smtp');
    await expect(loader.loadSender(session, 'acme.test', NOW)).rejects.toMatchObject({ status: 401, message: 'Invalid SMTP credential.' });
  });
});
