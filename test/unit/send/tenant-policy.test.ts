/** The tenant rules of a send: the pure policy, and the send core applying them within its one context read. */
import { sendEmail } from '#shared/usecases/send/send-email';
import {
  checkDomainOwner,
  checkTenantMaySend,
  chooseSendTenant,
  completeSender,
  tenantFiringRefusal,
} from '#shared/usecases/send/tenant-policy';
import { sendRequestSchema, type SendRequest } from '#shared/domain/emails/send-request';
import { account, fakeSendDeps, keyLookup, storedTenant, tenant } from '../usecases/send-fakes';

const ACME = tenant();
const GLOBEX = tenant({ id: 'ten_01HZZZZZZZZZZZZZZZZZZZZZZB', external_id: 'globex', name: 'globex' });

describe('tenant policy (pure)', () => {
  it("chooses the named tenant, else the key's, else the from domain's owner (own account only), else none", () => {
    const claim = { account_id: 'acc_1', tenant_id: GLOBEX.id };
    expect(chooseSendTenant('acme', ACME.id, 'acc_1', claim)).toEqual({ kind: 'named', ref: 'acme' });
    expect(chooseSendTenant(undefined, ACME.id, 'acc_1', claim)).toEqual({ kind: 'key', id: ACME.id });
    expect(chooseSendTenant(undefined, null, 'acc_1', claim)).toEqual({ kind: 'domain', id: GLOBEX.id });
    expect(chooseSendTenant(undefined, null, 'acc_2', claim)).toEqual({ kind: 'none' });
    expect(chooseSendTenant(undefined, null, 'acc_1', { account_id: 'acc_1', tenant_id: null })).toEqual({ kind: 'none' });
    expect(chooseSendTenant(undefined, null, 'acc_1', null)).toEqual({ kind: 'none' });
  });

  it('refuses a paused tenant and product email of a transactional_only tenant with 403 forbidden', () => {
    expect(() => checkTenantMaySend({ ...ACME, status: 'paused', paused_reason: 'invoice' }, 'transactional')).toThrow(
      expect.objectContaining({ status: 403, code: 'forbidden', details: expect.objectContaining({ paused_reason: 'invoice' }) }),
    );
    const strict = { ...ACME, stream_policy: 'transactional_only' as const };
    expect(() => checkTenantMaySend(strict, 'product')).toThrow(expect.objectContaining({ status: 403, code: 'forbidden' }));
    expect(() => checkTenantMaySend(strict, 'newsletter')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => checkTenantMaySend(strict, 'transactional')).not.toThrow();
    expect(() => checkTenantMaySend(ACME, 'product')).not.toThrow();
  });

  it('lets only the owning tenant send from a tenant domain (403 domain_not_allowed); account domains are open to all', () => {
    const globexDomain = { account_id: 'acc_1', tenant_id: GLOBEX.id };
    expect(() => checkDomainOwner(ACME, 'globex.test', globexDomain)).toThrow(
      expect.objectContaining({ status: 403, code: 'domain_not_allowed', details: { domain: 'globex.test', tenant: 'acme' } }),
    );
    expect(() => checkDomainOwner(null, 'globex.test', globexDomain)).toThrow(expect.objectContaining({ code: 'domain_not_allowed' }));
    expect(() => checkDomainOwner(GLOBEX, 'globex.test', globexDomain)).not.toThrow();
    expect(() => checkDomainOwner(ACME, 'shared.test', { account_id: 'acc_1', tenant_id: null })).not.toThrow();
    expect(() => checkDomainOwner(ACME, 'sandbox.test', null)).not.toThrow();
  });

  it('completes a bare local part with the tenant default_from_domain, else 400 naming from', () => {
    const withDefault = { ...ACME, default_from_domain: 'mail.acme.test' };
    expect(completeSender({ email: 'billing', name: 'Billing' }, withDefault)).toEqual({
      email: 'billing@mail.acme.test',
      name: 'Billing',
    });
    expect(completeSender({ email: 'a@b.test' }, withDefault)).toEqual({ email: 'a@b.test' });
    for (const t of [null, ACME]) {
      expect(() => completeSender({ email: 'billing' }, t)).toThrow(
        expect.objectContaining({
          status: 400,
          code: 'validation_error',
          details: { fields: [expect.objectContaining({ field: 'from' })] },
        }),
      );
    }
  });

  it('says why a scheduled tenant email may not go out at its firing', () => {
    expect(tenantFiringRefusal(ACME, 'product')).toBeNull();
    expect(tenantFiringRefusal(null, 'transactional')).toMatch(/deleted/);
    expect(tenantFiringRefusal({ ...ACME, status: 'paused', paused_reason: 'abuse' }, 'transactional')).toMatch(/paused.*abuse/);
    expect(tenantFiringRefusal({ ...ACME, stream_policy: 'transactional_only' }, 'product')).toMatch(/transactional/);
    expect(tenantFiringRefusal({ ...ACME, stream_policy: 'transactional_only' }, undefined)).toBeNull();
  });

  it('accepts a bare local part in from (string, "Name <local>", object) and still refuses junk', () => {
    const base = { to: 'a@example.com', subject: 's', text: 't' };
    expect(sendRequestSchema.parse({ ...base, from: 'billing' }).from).toEqual({ email: 'billing' });
    expect(sendRequestSchema.parse({ ...base, from: 'Billing <billing>' }).from).toEqual({ email: 'billing', name: 'Billing' });
    expect(sendRequestSchema.parse({ ...base, from: { email: 'billing', name: 'Billing' } }).from).toEqual({
      email: 'billing',
      name: 'Billing',
    });
    for (const from of ['bill ing', 'a@', '@b.test', '.billing', 'bil..ling', '', { email: 'x y' }]) {
      expect(sendRequestSchema.safeParse({ ...base, from }).success).toBe(false);
    }
  });
});

const request = (overrides: Partial<SendRequest> = {}): SendRequest =>
  ({ from: { email: 'hi@acme.test' }, to: ['someone@example.com'], subject: 'Hello', text: 'hi', ...overrides }) as SendRequest;

function world(options: { tenants?: (typeof ACME)[]; domains?: [string, string | null][] } = {}) {
  const { deps, world: w } = fakeSendDeps({
    accounts: new Map([['acc_1', account({ plan: 'scale', payment_method: true, tenants_enabled: true })]]),
    keys: new Map([
      ['hash-account', keyLookup()],
      ['hash-acme', keyLookup({ key_id: 'key_acme', tenant: ACME.id })],
    ]),
    domains: new Map(
      (options.domains ?? [['acme.test', null]]).map(([name, tenantId]) => [
        name,
        { id: `dom_${name}`, account_id: 'acc_1', status: 'verified' as const, tenant_id: tenantId },
      ]),
    ),
  });
  for (const t of options.tenants ?? [ACME, GLOBEX]) w.tenants.set(t.id, storedTenant(t));
  return { deps, w };
}

describe('send core: tenants', () => {
  // Each test's world() builds its own send-context loader: its guesses start empty, as in a new process.
  it('reads a tenant named by external_id in the one context read; from the second send on, its lists too (no further read)', async () => {
    const { deps, w } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }));
    // First send in this process: the tenant id was not known, so its lists took one more read.
    expect(w.contextReads).toHaveLength(2);
    expect(w.contextReads[0]).toMatchObject({ tenantExternalIds: ['acme'], tenantId: null });
    expect(w.contextReads[1]).toMatchObject({ tenantId: ACME.id });
    w.contextReads.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }));
    expect(w.contextReads).toEqual([expect.objectContaining({ tenantExternalIds: ['acme'], tenantId: ACME.id })]);
    expect(w.tenantLookups).toEqual([]);
    expect(w.accepted.map((a) => [a.email.tenant, a.email.tenant_id])).toEqual([
      ['acme', ACME.id],
      ['acme', ACME.id],
    ]);
  });

  it('checks the tenant list as well as the account list (422 naming the address)', async () => {
    const { deps, w } = world();
    w.tenantSuppressed.set(ACME.id, new Set(['someone@example.com']));
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }))).rejects.toMatchObject({
      status: 422,
      details: { suppressed: ['someone@example.com'] },
    });
    // Warm: the same answer from the single read.
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }))).rejects.toMatchObject({ status: 422 });
    // Another tenant's list does not block.
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'globex' }))).resolves.toMatchObject({ status: 'sent' });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request())).resolves.toMatchObject({ status: 'sent' });
  });

  it('resolves a tenant named by id (alias read, then a lookup), and 404 for unknown names', async () => {
    const { deps, w } = world();
    const sent = await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: ACME.id }));
    expect(sent.status).toBe('sent');
    expect(w.contextReads[0]).toMatchObject({ tenantAliasIds: [ACME.id], tenantId: ACME.id });
    expect(w.accepted[0]!.email.tenant).toBe('acme');
    for (const ref of ['nobody', 'ten_01HZZZZZZZZZZZZZZZZZZZZZZZ']) {
      await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: ref }))).rejects.toMatchObject({
        status: 404,
        code: 'not_found',
      });
    }
  });

  it('a key limited to a tenant sends as it when none is named, and 403 forbidden naming another', async () => {
    const { deps, w } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-acme' }, request());
    expect(w.accepted[0]!.email).toMatchObject({ tenant: 'acme', tenant_id: ACME.id });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-acme' }, request({ tenant: 'globex' }))).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-acme' }, request({ tenant: 'acme' }))).resolves.toMatchObject({ status: 'sent' });
    // Warm: the key's tenant is planned into the one read.
    w.contextReads.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-acme' }, request());
    expect(w.contextReads).toEqual([expect.objectContaining({ tenantExternalIds: ['acme'], tenantId: ACME.id })]);
  });

  it('an email from a tenant domain with no tenant named belongs to that tenant (rule 12), whose rules then apply', async () => {
    const { deps, w } = world({
      tenants: [ACME, { ...GLOBEX, status: 'paused' }],
      domains: [
        ['acme.test', ACME.id],
        ['globex.test', GLOBEX.id],
      ],
    });
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request());
    expect(w.accepted[0]!.email).toMatchObject({ tenant: 'acme', tenant_id: ACME.id });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ from: { email: 'a@globex.test' } }))).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
  });

  it("refuses another tenant's domain with 403 domain_not_allowed (named tenant or tenant key)", async () => {
    const { deps } = world({
      domains: [
        ['acme.test', ACME.id],
        ['globex.test', GLOBEX.id],
        ['shared.test', null],
      ],
    });
    await expect(
      sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ from: { email: 'a@globex.test' }, tenant: 'acme' })),
    ).rejects.toMatchObject({ status: 403, code: 'domain_not_allowed' });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-acme' }, request({ from: { email: 'a@globex.test' } }))).rejects.toMatchObject({
      status: 403,
      code: 'domain_not_allowed',
    });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-acme' }, request({ from: { email: 'a@shared.test' } }))).resolves.toMatchObject({
      status: 'sent',
    });
  });

  it('refuses a paused tenant and product mail of a transactional_only tenant with 403 forbidden; nothing is stored', async () => {
    const { deps, w } = world({
      tenants: [
        { ...ACME, status: 'paused' },
        { ...GLOBEX, stream_policy: 'transactional_only' },
      ],
    });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }))).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'globex', category: 'product' }))).rejects.toMatchObject(
      { status: 403, code: 'forbidden' },
    );
    await expect(
      sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'globex', category: 'transactional' })),
    ).resolves.toMatchObject({ status: 'sent' });
    expect(w.accepted).toHaveLength(1);
    expect(w.created).toHaveLength(0);
  });

  it('completes a bare from with the tenant default_from_domain; 400 naming from without one', async () => {
    const { deps, w } = world({ tenants: [{ ...ACME, default_from_domain: 'acme.test' }, GLOBEX] });
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ from: { email: 'billing', name: 'Billing' }, tenant: 'acme' }));
    expect(w.accepted[0]!.email.from).toBe('Billing <billing@acme.test>');
    // Warm: the default domain's claim is planned into the one read.
    w.contextReads.length = 0;
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ from: { email: 'billing' }, tenant: 'acme' }));
    expect(w.contextReads).toEqual([expect.objectContaining({ fromDomain: 'acme.test', tenantId: ACME.id })]);
    for (const tenantRef of ['globex', undefined]) {
      await expect(
        sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ from: { email: 'billing' }, tenant: tenantRef })),
      ).rejects.toMatchObject({ status: 400, code: 'validation_error', details: { fields: [expect.objectContaining({ field: 'from' })] } });
    }
  });

  it('a wrong guess is corrected by the reads: a re-created tenant (same external_id, new id) gets its own list', async () => {
    const { deps, w } = world();
    await sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }));
    const reborn = tenant({ id: 'ten_01HZZZZZZZZZZZZZZZZZZZZZZC' });
    w.tenants.delete(ACME.id);
    w.tenants.set(reborn.id, storedTenant(reborn));
    w.tenantSuppressed.set(reborn.id, new Set(['someone@example.com']));
    w.contextReads.length = 0;
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }))).rejects.toMatchObject({ status: 422 });
    expect(w.contextReads.map((q) => q.tenantId)).toEqual([ACME.id, reborn.id]);
  });

  it('answers 403 tenants_not_enabled for a named tenant on an account without tenants', async () => {
    const { deps, w } = world();
    w.accounts.set('acc_1', account({ tenants_enabled: false }));
    await expect(sendEmail(deps, { apiKeyHash: 'hash-account' }, request({ tenant: 'acme' }))).rejects.toMatchObject({
      status: 403,
      code: 'tenants_not_enabled',
    });
  });
});
