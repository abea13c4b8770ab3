/** SMTP credential use cases (shared/usecases/access/smtp-credentials.ts) and their input schema over in-memory fakes. */
import { createHash } from 'node:crypto';
import { createApiKeySchema } from '#shared/domain/api-keys/schemas';
import { isId } from '#shared/domain/ids';
import { createSmtpCredentialSchema } from '#shared/domain/smtp-credentials/schemas';
import { looksLikeSmtpPassword } from '#shared/domain/smtp-credentials/secret';
import { SMTP_CREDENTIAL_SCOPES, toPublicSmtpCredential, type SmtpCredential } from '#shared/domain/smtp-credentials/smtp-credential';
import type { Principal } from '#shared/usecases/access/principal';
import {
  createSmtpCredential,
  listSmtpCredentials,
  revokeSmtpCredential,
  revokeTenantSmtpCredentials,
  type SmtpCredentialDeps,
} from '#shared/usecases/access/smtp-credentials';
import { account, NOW, storedTenant, tenant } from '../usecases/send-fakes';
import type { StoredTenant } from '#shared/adapters/store/tenants';

const ACME = tenant();

function principal(overrides: { tenants?: boolean; limitedTo?: string | null } = {}): Principal {
  return {
    account: account({ tenants_enabled: overrides.tenants ?? true }),
    credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: overrides.limitedTo ?? null, allowed_domains: null },
  };
}

function fakes(options: { tenants?: StoredTenant[]; createOutcome?: 'created' | 'tenant_gone' } = {}) {
  const stored = new Map<string, { credential: SmtpCredential; hash: string }>();
  const calls: string[] = [];
  const deps: SmtpCredentialDeps = {
    smtpCredentials: {
      create: async (credential, hash, t) => {
        calls.push(`create ${t?.id ?? 'account'}`);
        if (options.createOutcome === 'tenant_gone') return 'tenant_gone';
        stored.set(credential.id, { credential, hash });
        return 'created';
      },
      list: async (accountId) => {
        calls.push(`list ${accountId}`);
        return {
          items: [...stored.values()].filter((s) => s.credential.account_id === accountId).map((s) => s.credential),
          next_cursor: null,
        };
      },
      delete: async (accountId, id, mayDelete = () => true) => {
        calls.push(`delete ${accountId} ${id}`);
        const found = stored.get(id);
        if (!found || found.credential.account_id !== accountId) return 'not_found';
        if (!mayDelete(found.credential)) return 'beyond_reach';
        stored.delete(id);
        return 'deleted';
      },
    },
    tenants: {
      find: async (accountId, ref) =>
        (options.tenants ?? []).find((s) => s.tenant.account_id === accountId && (s.tenant.id === ref || s.tenant.external_id === ref)) ??
        null,
    },
    clock: { now: () => NOW },
  };
  return { deps, stored, calls };
}

describe('createSmtpCredential', () => {
  it('returns a svcsmtp_ password once and hands the store only its SHA-256 hash', async () => {
    const f = fakes();
    const { credential, password } = await createSmtpCredential(f.deps, principal(), { name: 'wordpress' });
    expect(looksLikeSmtpPassword(password)).toBe(true);
    expect(password.startsWith('svcsmtp_')).toBe(true);
    expect(isId('smtp', credential.id)).toBe(true);
    const saved = f.stored.get(credential.id)!;
    expect(saved.hash).toBe(createHash('sha256').update(password).digest('hex'));
    expect(JSON.stringify(saved.credential)).not.toContain(password);
    expect(saved.credential).toEqual({
      id: credential.id,
      account_id: 'acc_1',
      name: 'wordpress',
      tenant: null,
      allowed_domains: null,
      created_at: NOW.toISOString(),
      last_used_at: null,
    });
    // Two credentials never share a password.
    expect((await createSmtpCredential(f.deps, principal(), { name: 'other' })).password).not.toBe(password);
  });

  it('limits to a tenant named by external_id or id (stored by id, shown by external_id)', async () => {
    const f = fakes({ tenants: [storedTenant(ACME)] });
    for (const ref of [ACME.external_id, ACME.id]) {
      const { credential } = await createSmtpCredential(f.deps, principal(), { name: 't', tenant: ref, allowed_domains: ['example.com'] });
      expect(credential).toMatchObject({ tenant: ACME.id, tenant_external_id: 'acme', allowed_domains: ['example.com'] });
      expect(toPublicSmtpCredential(credential)).toMatchObject({ tenant: 'acme', allowed_domains: ['example.com'] });
    }
    expect(f.calls).toEqual([`create ${ACME.id}`, `create ${ACME.id}`]);
  });

  it('refuses a tenant as API keys do: 403 tenants_not_enabled, 404 unknown or being deleted, 404 when deleted meanwhile', async () => {
    const cases: [ReturnType<typeof fakes>, Principal, string, { status: number; code: string }][] = [
      [fakes({ tenants: [storedTenant(ACME)] }), principal({ tenants: false }), 'acme', { status: 403, code: 'tenants_not_enabled' }],
      [fakes({ tenants: [storedTenant(ACME)] }), principal(), 'nobody', { status: 404, code: 'not_found' }],
      [fakes({ tenants: [storedTenant(ACME, true)] }), principal(), 'acme', { status: 404, code: 'not_found' }],
      [fakes({ tenants: [storedTenant(ACME)], createOutcome: 'tenant_gone' }), principal(), 'acme', { status: 404, code: 'not_found' }],
    ];
    for (const [f, who, ref, expected] of cases) {
      await expect(createSmtpCredential(f.deps, who, { name: 'x', tenant: ref })).rejects.toMatchObject(expected);
      expect(f.stored.size).toBe(0);
    }
  });
});

describe('a key limited to a tenant', () => {
  it('gets 403 forbidden for create, list and revoke, and the store is never called', async () => {
    const f = fakes({ tenants: [storedTenant(ACME)] });
    const limited = principal({ limitedTo: ACME.id });
    await expect(createSmtpCredential(f.deps, limited, { name: 'x' })).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await expect(createSmtpCredential(f.deps, limited, { name: 'x', tenant: ACME.id })).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(() => listSmtpCredentials(f.deps, limited, { limit: 10 })).toThrow(expect.objectContaining({ status: 403, code: 'forbidden' }));
    await expect(revokeSmtpCredential(f.deps, limited, 'smtp_01HZZZZZZZZZZZZZZZZZZZZZZZ')).rejects.toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(f.calls).toEqual([]);
  });
});

describe('revokeSmtpCredential', () => {
  it("deletes the account's credential; a second revoke, another account's id or a foreign id shape is 404", async () => {
    const f = fakes();
    const { credential } = await createSmtpCredential(f.deps, principal(), { name: 'x' });
    const stranger: Principal = { ...principal(), account: account({ id: 'acc_2' }) };
    await expect(revokeSmtpCredential(f.deps, stranger, credential.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await revokeSmtpCredential(f.deps, principal(), credential.id);
    expect(f.stored.size).toBe(0);
    await expect(revokeSmtpCredential(f.deps, principal(), credential.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    f.calls.length = 0;
    // Not one of our ids: 404 without a read (a 3000-character id would not even be a valid table key).
    for (const id of ['x'.repeat(3000), 'key_01HZZZZZZZZZZZZZZZZZZZZZZZ', '']) {
      await expect(revokeSmtpCredential(f.deps, principal(), id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    }
    expect(f.calls).toEqual([]);
  });
});

describe('revokeTenantSmtpCredentials (the tenant deletion)', () => {
  it("revokes exactly the tenant's credentials and is idempotent when run again", async () => {
    const credentials = new Map([
      ['smtp_1', 'ten_A'],
      ['smtp_2', null],
      ['smtp_3', 'ten_A'],
      ['smtp_4', 'ten_B'],
    ]);
    const deps = {
      smtpCredentials: {
        tenantCredentialIds: async (_accountId: string, tenantId: string) =>
          [...credentials].filter(([, t]) => t === tenantId).map(([id]) => id),
        delete: async (_accountId: string, id: string) => (credentials.delete(id) ? ('deleted' as const) : ('not_found' as const)),
      },
    };
    expect(await revokeTenantSmtpCredentials(deps, { id: 'ten_A', account_id: 'acc_1' })).toBe(2);
    expect([...credentials.keys()]).toEqual(['smtp_2', 'smtp_4']);
    expect(await revokeTenantSmtpCredentials(deps, { id: 'ten_A', account_id: 'acc_1' })).toBe(0);
    expect([...credentials.keys()]).toEqual(['smtp_2', 'smtp_4']);
  });
});

describe('createSmtpCredentialSchema', () => {
  it('validates name, tenant and allowed_domains exactly as the API key schema does', () => {
    const inputs: unknown[] = [
      { name: 'x' },
      { name: '  padded  ' },
      {},
      { name: '' },
      { name: '   ' },
      { name: 7 },
      { name: 'x'.repeat(100) },
      { name: 'x'.repeat(101) },
      { name: 'x', tenant: '' },
      { name: 'x', tenant: 'acme' },
      { name: 'x', tenant: 'x'.repeat(129) },
      { name: 'x', tenant: 42 },
      { name: 'x', allowed_domains: [] },
      { name: 'x', allowed_domains: ['Example.COM', 'example.com'] },
      { name: 'x', allowed_domains: ['not a domain'] },
      { name: 'x', allowed_domains: 'example.com' },
      { name: 'x', allowed_domains: Array.from({ length: 101 }, (_, i) => `d${i}.example.com`) },
      null,
      [],
    ];
    for (const input of inputs) {
      const asKey = createApiKeySchema.safeParse(
        input && typeof input === 'object' && !Array.isArray(input) ? { ...input, scopes: ['full'] } : input,
      );
      const asCredential = createSmtpCredentialSchema.safeParse(input);
      expect({ input, ok: asCredential.success }).toEqual({ input, ok: asKey.success });
      if (asKey.success && asCredential.success) {
        const { scopes: _scopes, ...rest } = asKey.data;
        expect(asCredential.data).toEqual(rest);
      }
    }
    expect(createSmtpCredentialSchema.parse({ name: 'x', allowed_domains: ['Example.COM', 'example.com'] }).allowed_domains).toEqual([
      'example.com',
    ]);
  });
});

describe('toPublicSmtpCredential', () => {
  it('shows every public field, the fixed username, and nothing else (no hash, no account id)', () => {
    const record = {
      id: 'smtp_1',
      account_id: 'acc_1',
      name: 'n',
      tenant: null,
      allowed_domains: null,
      created_at: NOW.toISOString(),
      last_used_at: null,
      secret_hash: 'h',
    } as SmtpCredential;
    expect(toPublicSmtpCredential(record)).toEqual({
      object: 'smtp_credential',
      id: 'smtp_1',
      name: 'n',
      username: 'mailservice',
      tenant: null,
      allowed_domains: null,
      created_at: NOW.toISOString(),
      last_used_at: null,
    });
  });

  it('may only send', () => {
    expect(SMTP_CREDENTIAL_SCOPES).toEqual(['emails:send']);
  });
});
