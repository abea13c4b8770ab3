/**
 * Nothing exceeds its maker (docs/api.md, "Creating within your reach"): the scopes' coverage, the policy
 * a new key or credential goes through (scopes covered by the creator's, domains a subset of a limited
 * creator's), the session's scopes per dashboard role, and the two use cases with in-memory stores.
 */
import type { Account } from '#shared/domain/accounts/account';
import type { ApiKey } from '#shared/domain/api-keys/api-key';
import { grantableScopes, grantWithinReach, reachCovers } from '#shared/domain/api-keys/reach';
import { createApiKeySchema } from '#shared/domain/api-keys/schemas';
import { covers, hasScope, SCOPES, scopesCoveringAll, scopesCoveringAny, type Scope } from '#shared/domain/api-keys/scopes';
import { ROLE_SCOPES } from '#shared/domain/dashboard/roles';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { createSmtpCredentialSchema } from '#shared/domain/smtp-credentials/schemas';
import type { SmtpCredential } from '#shared/domain/smtp-credentials/smtp-credential';
import { createApiKey, revokeApiKey, type ApiKeyDeps } from '#shared/usecases/access/api-keys';
import type { Principal } from '#shared/usecases/access/principal';
import { createSmtpCredential, revokeSmtpCredential, type SmtpCredentialDeps } from '#shared/usecases/access/smtp-credentials';
import { sessionPrincipal } from '#shared/usecases/dashboard/sessions';
import { newId } from '#shared/domain/ids';

const NOW = new Date('2026-11-26T10:00:00.000Z');
const account = {
  id: 'acc_1',
  email: 'o@acme.test',
  plan: 'pro',
  payment_method: true,
  tenants_enabled: false,
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
} as Account;
const ACCOUNT_LEVEL: Scope[] = ['full', 'account:admin'];

function principal(scopes: string[], allowedDomains: string[] | null = null): Principal {
  return { account, credential: { kind: 'api_key', id: 'key_1', scopes, tenant: null, allowed_domains: allowedDomains } };
}

describe('scope coverage', () => {
  it('full covers every scope; mail:admin every scope but full and account:admin; every other scope only itself', () => {
    for (const scope of SCOPES) {
      expect(covers(['full'], scope)).toBe(true);
      expect(covers(['mail:admin'], scope)).toBe(!ACCOUNT_LEVEL.includes(scope));
      for (const holder of SCOPES.filter((one) => one !== 'full' && one !== 'mail:admin'))
        expect(covers([holder], scope)).toBe(holder === scope);
    }
  });

  it('a check passes with any scope covering one of those it names', () => {
    expect(hasScope(['mail:admin'], ['emails:send'])).toBe(true);
    expect(hasScope(['mail:admin'], ['account:admin'])).toBe(false);
    expect(hasScope(['account:admin'], ['mail:admin'])).toBe(false);
    expect(hasScope(['account:admin'], ['account:read'])).toBe(false);
    expect(hasScope(['emails:send', 'account:admin'], ['account:admin'])).toBe(true);
    expect(scopesCoveringAny(['emails:send'])).toEqual(['full', 'mail:admin', 'emails:send']);
    expect(scopesCoveringAny(['account:admin'])).toEqual(['full', 'account:admin']);
    expect(scopesCoveringAll(['webhooks:write', 'suppressions:write'])).toEqual([
      'full',
      'mail:admin',
      'webhooks:write',
      'suppressions:write',
    ]);
  });
});

describe('grantWithinReach', () => {
  it('gives the scopes asked for when the creator covers each; refuses the others by name (403 insufficient_scope)', () => {
    expect(grantWithinReach({ scopes: ['full'], allowed_domains: null }, { scopes: ['account:admin'] }).scopes).toEqual(['account:admin']);
    expect(
      grantWithinReach({ scopes: ['mail:admin'], allowed_domains: null }, { scopes: ['emails:send', 'domains:write'] }).scopes,
    ).toEqual(['emails:send', 'domains:write']);
    for (const [creator, asked] of [
      [['mail:admin'], ['full']],
      [['mail:admin'], ['account:admin']],
      [['emails:send'], ['full']],
      [['emails:send'], ['emails:send', 'domains:write']],
    ] as [string[], Scope[]][]) {
      const refused = () => grantWithinReach({ scopes: creator, allowed_domains: null }, { scopes: asked });
      expect(refused).toThrow(
        expect.objectContaining({
          status: 403,
          code: 'insufficient_scope',
          details: expect.objectContaining({ refused_scopes: asked.filter((scope) => !covers(creator, scope)) }),
        }),
      );
    }
  });

  it("left out, the scopes are the creator's own", () => {
    expect(grantWithinReach({ scopes: ['mail:admin'], allowed_domains: null }, {}).scopes).toEqual(['mail:admin']);
    expect(grantWithinReach({ scopes: ['full'], allowed_domains: null }, {}).scopes).toEqual(['full']);
  });

  it('a creator limited to domains gives a non-empty subset of them, its own list when none is asked, never an unlimited one', () => {
    const creator = { scopes: ['full'], allowed_domains: ['a.example', 'c.example'] };
    expect(grantWithinReach(creator, {}).allowed_domains).toEqual(['a.example', 'c.example']);
    expect(grantWithinReach(creator, { allowed_domains: ['c.example'] }).allowed_domains).toEqual(['c.example']);
    expect(() => grantWithinReach(creator, { allowed_domains: ['a.example', 'b.example'] })).toThrow(
      expect.objectContaining({
        status: 403,
        code: 'domain_not_allowed',
        details: { field: 'allowed_domains', domains: ['b.example'], allowed_domains: ['a.example', 'c.example'] },
      }),
    );
  });

  it('an unlimited creator gives any domains, or none (unlimited)', () => {
    expect(grantWithinReach({ scopes: ['full'], allowed_domains: null }, {}).allowed_domains).toBeNull();
    expect(grantWithinReach({ scopes: ['full'], allowed_domains: null }, { allowed_domains: ['b.example'] }).allowed_domains).toEqual([
      'b.example',
    ]);
  });
});

describe('dashboard roles as scopes', () => {
  const user = (role: DashboardUser['role']) => ({ id: 'usr_1', account_id: 'acc_1', email: 'm@acme.test', role }) as DashboardUser;

  it("a session acts with its role's scopes: owners and admins full, developers mail:admin, viewers account:read", () => {
    expect(sessionPrincipal(account, user('owner')).credential.scopes).toEqual(['full']);
    expect(sessionPrincipal(account, user('admin')).credential.scopes).toEqual(['full']);
    expect(sessionPrincipal(account, user('developer')).credential.scopes).toEqual(['mail:admin']);
    expect(sessionPrincipal(account, user('viewer')).credential.scopes).toEqual(['account:read']);
  });

  it('a developer may grant every scope but full and account:admin', () => {
    expect(grantableScopes(ROLE_SCOPES.developer)).toEqual(SCOPES.filter((scope) => !ACCOUNT_LEVEL.includes(scope)));
    expect(grantableScopes(ROLE_SCOPES.owner)).toEqual([...SCOPES]);
    expect(grantableScopes(ROLE_SCOPES.viewer)).toEqual(['account:read']);
  });
});

describe('the use cases', () => {
  function deps() {
    const keys: ApiKey[] = [];
    const credentials: SmtpCredential[] = [];
    const common = { tenants: { find: async () => null }, clock: { now: () => NOW } };
    const apiKeyDeps = { ...common, apiKeys: { create: async (key: ApiKey) => void keys.push(key) } } as unknown as ApiKeyDeps;
    const smtpDeps = {
      ...common,
      smtpCredentials: { create: async (credential: SmtpCredential) => void credentials.push(credential) },
    } as unknown as SmtpCredentialDeps;
    return { keys, credentials, apiKeyDeps, smtpDeps };
  }

  it('createApiKey: a limited full key asking for a key by name alone gets one limited the same way', async () => {
    const w = deps();
    const { apiKey } = await createApiKey(w.apiKeyDeps, principal(['full'], ['a.example']), createApiKeySchema.parse({ name: 'x' }));
    expect(apiKey).toMatchObject({ scopes: ['full'], allowed_domains: ['a.example'] });
    await expect(
      createApiKey(
        w.apiKeyDeps,
        principal(['full'], ['a.example']),
        createApiKeySchema.parse({ name: 'y', allowed_domains: ['b.example'] }),
      ),
    ).rejects.toMatchObject({ status: 403, code: 'domain_not_allowed' });
    await expect(
      createApiKey(w.apiKeyDeps, principal(['mail:admin']), createApiKeySchema.parse({ name: 'z', scopes: ['full'] })),
    ).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(w.keys).toHaveLength(1);
  });

  it('createSmtpCredential: a limited key makes only credentials within its domains', async () => {
    const w = deps();
    const { credential } = await createSmtpCredential(
      w.smtpDeps,
      principal(['full'], ['a.example']),
      createSmtpCredentialSchema.parse({ name: 'relay' }),
    );
    expect(credential.allowed_domains).toEqual(['a.example']);
    await expect(
      createSmtpCredential(
        w.smtpDeps,
        principal(['full'], ['a.example']),
        createSmtpCredentialSchema.parse({ name: 'r', allowed_domains: ['b.example'] }),
      ),
    ).rejects.toMatchObject({ status: 403, code: 'domain_not_allowed' });
    // A credential sends: a creator whose scopes do not cover emails:send makes none.
    await expect(
      createSmtpCredential(w.smtpDeps, principal(['account:admin']), createSmtpCredentialSchema.parse({ name: 'r' })),
    ).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(w.credentials).toHaveLength(1);
  });

  it("revokeApiKey and revokeSmtpCredential: only what the caller's reach covers (a developer cannot revoke an owner's full key)", async () => {
    const smtpAny = newId('smtp');
    const smtpA = newId('smtp');
    const stored = new Map<string, { scopes: string[]; allowed_domains: string[] | null }>([
      ['key_full', { scopes: ['full'], allowed_domains: null }],
      ['key_send_a', { scopes: ['emails:send'], allowed_domains: ['a.example'] }],
      [smtpAny, { scopes: ['emails:send'], allowed_domains: null }],
      [smtpA, { scopes: ['emails:send'], allowed_domains: ['a.example'] }],
    ]);
    const remove = async (_account: string, id: string, mayDelete: (item: never) => boolean = () => true) => {
      const item = stored.get(id);
      if (!item) return 'not_found' as const;
      if (!mayDelete({ id, ...item } as never)) return 'beyond_reach' as const;
      stored.delete(id);
      return 'deleted' as const;
    };
    const apiKeyDeps = { apiKeys: { delete: remove } } as unknown as ApiKeyDeps;
    const smtpDeps = { smtpCredentials: { delete: remove } } as unknown as SmtpCredentialDeps;
    await expect(revokeApiKey(apiKeyDeps, principal(['mail:admin']), 'key_full')).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    await expect(revokeApiKey(apiKeyDeps, principal(['full'], ['b.example']), 'key_send_a')).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    await revokeApiKey(apiKeyDeps, principal(['mail:admin'], ['a.example']), 'key_send_a');
    await expect(revokeSmtpCredential(smtpDeps, principal(['full'], ['a.example']), smtpAny)).rejects.toMatchObject({ status: 403 });
    await revokeSmtpCredential(smtpDeps, principal(['mail:admin'], ['a.example', 'b.example']), smtpA);
    await revokeApiKey(apiKeyDeps, principal(['full']), 'key_full');
    await expect(revokeApiKey(apiKeyDeps, principal(['full']), 'key_full')).rejects.toMatchObject({ status: 404 });
    expect([...stored.keys()]).toEqual([smtpAny]);
  });

  it('reachCovers: every scope covered, and the domains within (an unlimited target only by an unlimited holder)', () => {
    expect(reachCovers({ scopes: ['full'], allowed_domains: null }, { scopes: ['full'], allowed_domains: null })).toBe(true);
    expect(reachCovers({ scopes: ['mail:admin'], allowed_domains: null }, { scopes: ['account:admin'], allowed_domains: null })).toBe(
      false,
    );
    expect(reachCovers({ scopes: ['full'], allowed_domains: ['a.example'] }, { scopes: ['emails:send'], allowed_domains: null })).toBe(
      false,
    );
    expect(
      reachCovers(
        { scopes: ['full'], allowed_domains: ['a.example', 'b.example'] },
        { scopes: ['emails:send'], allowed_domains: ['b.example'] },
      ),
    ).toBe(true);
  });
});
