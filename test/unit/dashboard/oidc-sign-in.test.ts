/**
 * Sign-in with OpenID Connect (shared/usecases/dashboard/oidc-sign-in.ts) over in-memory fakes of its ports:
 * the flow kept server-side (state, nonce, PKCE S256) and used once, the state compared, the provider's
 * claims held to the rules (an email, verified, of an allowed domain, a member's), a session as the
 * password path starts one, the audit records with `method: oidc`; and the settings read from OIDC_*.
 */
import { createHash } from 'node:crypto';
import type { AuditRecord } from '#shared/domain/audit/audit-record';
import { oidcSettingsFromValues, type OidcClaims, type OidcFlow, type OidcSettings } from '#shared/domain/dashboard/oidc';
import { sessionTokenHash } from '#shared/domain/dashboard/session-token';
import type { DashboardUser } from '#shared/domain/dashboard/user';
import { OidcProviderError, type OidcAuthorizationRequest, type OidcCallbackChecks, type OidcProvider } from '#shared/ports/oidc-provider';
import { providerErrorOf } from '#shared/adapters/oidc/openid-client-provider';
import { RATE_LIMITS } from '#shared/domain/rate-limits';
import { completeOidcSignIn, startOidcSignIn, type OidcSignInDeps } from '#shared/usecases/dashboard/oidc-sign-in';
import { account, FakeClock, FakeRateLimits, FakeSessions, FakeUsers, refusal, T0 } from './fakes';

const ORIGIN = 'https://mail.example.com';
const CLIENT = { ip: '203.0.113.7', userAgent: 'test', requestId: 'req_1' };

/** The provider: records what it was asked, answers the claims it is given (or throws). */
class FakeProvider implements OidcProvider {
  requests: OidcAuthorizationRequest[] = [];
  exchanges: { query: URLSearchParams; checks: OidcCallbackChecks }[] = [];
  constructor(public answer: () => OidcClaims) {}
  async authorizationUrl(request: OidcAuthorizationRequest): Promise<URL> {
    this.requests.push(request);
    return new URL(
      `https://idp.example.com/authorize?${new URLSearchParams({ state: request.state, nonce: request.nonce, code_challenge: request.codeChallenge, redirect_uri: request.redirectUri })}`,
    );
  }
  async exchange(query: URLSearchParams, checks: OidcCallbackChecks): Promise<OidcClaims> {
    this.exchanges.push({ query, checks });
    return this.answer();
  }
}

class FakeFlows {
  readonly items = new Map<string, OidcFlow>();
  async create(hash: string, flow: OidcFlow): Promise<void> {
    this.items.set(hash, structuredClone(flow));
  }
  async take(hash: string): Promise<OidcFlow | null> {
    const flow = this.items.get(hash) ?? null;
    this.items.delete(hash);
    return flow;
  }
}

function settings(overrides: Partial<OidcSettings> = {}): OidcSettings {
  return {
    ...oidcSettingsFromValues({
      issuer: 'https://idp.example.com',
      clientId: 'dash',
      label: 'Okta',
      allowedDomains: '',
      sealedClientSecret: '',
    })!,
    ...overrides,
  };
}

function world(claims: OidcClaims = { sub: 'u1', email: 'ada@acme.test', email_verified: true }, oidcSettings = settings()) {
  const clock = new FakeClock();
  const users = new FakeUsers();
  const provider = new FakeProvider(() => claims);
  const flows = new FakeFlows();
  const audit: AuditRecord[] = [];
  const deps: OidcSignInDeps & { sessions: FakeSessions } = {
    oidc: { settings: oidcSettings, provider },
    oidcFlows: flows,
    dashboardUsers: users,
    rateLimits: new FakeRateLimits(),
    sessions: new FakeSessions(),
    clock,
    auditLog: { append: async (record: AuditRecord) => void audit.push(record) },
  };
  return { clock, users, provider, flows, audit, deps };
}

async function addUser(users: FakeUsers, email: string, role: DashboardUser['role'] = 'owner'): Promise<DashboardUser> {
  const user: DashboardUser = {
    id: `usr_${users.users.size + 1}`,
    account_id: account.id,
    email,
    role,
    password_hash: '$scrypt$x',
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
  } as DashboardUser;
  await users.create(user);
  return user;
}

/** A started flow and the provider's callback for it (the state as the provider echoes it). */
async function started(w: ReturnType<typeof world>, next = '/dashboard/webhooks') {
  const start = await startOidcSignIn(w.deps, { origin: ORIGIN, next }, CLIENT);
  const state = start.authorizationUrl.searchParams.get('state')!;
  return { start, query: new URLSearchParams({ code: 'the-code', state, iss: 'https://idp.example.com' }) };
}

describe('startOidcSignIn', () => {
  it('keeps the flow server-side under the hash of the cookie token, and asks the provider with state, nonce and an S256 challenge', async () => {
    const w = world();
    const { start } = await started(w);
    expect(start.flowToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const flow = w.flows.items.get(sessionTokenHash(start.flowToken))!;
    expect(flow).toMatchObject({
      redirect_uri: `${ORIGIN}/dashboard/sign-in/oidc/callback`,
      next: '/dashboard/webhooks',
      expires_at: new Date(T0 + 600_000).toISOString(),
    });
    const [request] = w.provider.requests;
    expect(request).toEqual({
      redirectUri: flow.redirect_uri,
      state: flow.state,
      nonce: flow.nonce,
      codeChallenge: createHash('sha256').update(flow.code_verifier).digest('base64url'),
    });
    expect(new Set([flow.state, flow.nonce, flow.code_verifier, start.flowToken]).size).toBe(4);
    // Nothing secret in the browser's hands but the token: the table never holds it.
    expect(JSON.stringify([...w.flows.items])).not.toContain(start.flowToken);
  });

  it('is 404 without a provider and 503 with misconfigured settings', async () => {
    const w = world();
    expect((await refusal(startOidcSignIn({ ...w.deps, oidc: null }, { origin: ORIGIN, next: '/dashboard' }, CLIENT))).status).toBe(404);
    const bad = settings({ problem: 'OIDC_ISSUER must be an https URL' });
    expect(
      (
        await refusal(
          startOidcSignIn({ ...w.deps, oidc: { settings: bad, provider: w.provider } }, { origin: ORIGIN, next: '/dashboard' }, CLIENT),
        )
      ).status,
    ).toBe(503);
  });

  it('counts the flows started from one IP (oidcStartPerIp): over the limit is 429 and no flow item is written', async () => {
    const w = world();
    const client = { ...CLIENT, ip: '198.51.100.77' };
    for (let i = 0; i < RATE_LIMITS.oidcStartPerIp.limit; i++)
      await startOidcSignIn(w.deps, { origin: ORIGIN, next: '/dashboard' }, client);
    const written = w.flows.items.size;
    expect(written).toBe(RATE_LIMITS.oidcStartPerIp.limit);
    const limited = await refusal(startOidcSignIn(w.deps, { origin: ORIGIN, next: '/dashboard' }, client));
    expect(limited.status).toBe(429);
    expect(w.flows.items.size).toBe(written);
    // Another address is not held back.
    await startOidcSignIn(w.deps, { origin: ORIGIN, next: '/dashboard' }, CLIENT);
    expect(w.flows.items.size).toBe(written + 1);
  });

  it('is 503 when the provider cannot be reached (its discovery)', async () => {
    const w = world();
    w.provider.authorizationUrl = async () => {
      throw new OidcProviderError('unreachable', 'down');
    };
    const error = await refusal(startOidcSignIn(w.deps, { origin: ORIGIN, next: '/dashboard' }, CLIENT));
    expect(error.status).toBe(503);
    expect(error.message).toContain('Okta could not be reached');
    expect(w.flows.items.size).toBe(0);
  });
});

describe('completeOidcSignIn', () => {
  it('signs the member with the verified email in: a session, the flow spent, next, and signIn audited with method oidc', async () => {
    const w = world({ sub: 'u1', email: 'Ada@Acme.TEST', email_verified: true });
    const user = await addUser(w.users, 'ada@acme.test');
    const { start, query } = await started(w);
    const done = await completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT);
    expect(done).toMatchObject({ user: { id: user.id }, next: '/dashboard/webhooks', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect([...w.deps.sessions.items.values()]).toEqual([
      expect.objectContaining({ user_id: user.id, user_email: 'ada@acme.test', account_id: account.id }),
    ]);
    expect(w.flows.items.size).toBe(0);
    // The checks the provider was given are the flow's.
    const flowChecks = w.provider.exchanges[0]!.checks;
    expect(flowChecks.redirectUri).toBe(`${ORIGIN}/dashboard/sign-in/oidc/callback`);
    expect(createHash('sha256').update(flowChecks.codeVerifier).digest('base64url')).toBe(w.provider.requests[0]!.codeChallenge);
    expect(w.audit).toEqual([
      expect.objectContaining({
        account_id: account.id,
        action: 'signIn',
        status: 200,
        resource_ids: { user: user.id, method: 'oidc' },
        actor: { type: 'user', id: user.id, email: user.email, email_hash: null, role: 'owner' },
        source_ip: CLIENT.ip,
      }),
    ]);
    // The same callback again: the flow is gone.
    const again = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT));
    expect(again.status).toBe(400);
  });

  it('refuses an address no member has (403; never creates a user); signInFailed under the deployment with the hash only', async () => {
    const w = world({ sub: 'u2', email: 'stranger@acme.test', email_verified: true });
    const { start, query } = await started(w);
    const error = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT));
    expect({ status: error.status, reason: error.details?.reason }).toEqual({ status: 403, reason: 'no_member' });
    expect(error.message).toContain('stranger@acme.test is not a member');
    expect(w.users.users.size).toBe(0);
    expect(w.deps.sessions.items.size).toBe(0);
    expect(w.audit).toEqual([
      expect.objectContaining({
        account_id: 'deployment',
        action: 'signInFailed',
        status: 403,
        resource_ids: { method: 'oidc' },
        actor: {
          type: 'user',
          id: null,
          email: null,
          email_hash: createHash('sha256').update('stranger@acme.test').digest('hex').slice(0, 32),
          role: null,
        },
      }),
    ]);
  });

  it("refuses an email the provider has not verified, even a member's (only `true` counts); signInFailed in the member's account", async () => {
    for (const verified of [false, 'true', undefined]) {
      const w = world({ sub: 'u1', email: 'ada@acme.test', email_verified: verified });
      const user = await addUser(w.users, 'ada@acme.test');
      const { start, query } = await started(w);
      const error = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT));
      expect({ verified, status: error.status, reason: error.details?.reason }).toEqual({
        verified,
        status: 403,
        reason: 'unverified_email',
      });
      expect(w.deps.sessions.items.size).toBe(0);
      expect(w.audit).toEqual([
        expect.objectContaining({ account_id: account.id, action: 'signInFailed', resource_ids: { user: user.id, method: 'oidc' } }),
      ]);
    }
  });

  it('refuses a domain the deployment does not allow, and no email at all', async () => {
    const w = world({ sub: 'u1', email: 'ada@elsewhere.test', email_verified: true }, settings({ allowedDomains: ['acme.test'] }));
    await addUser(w.users, 'ada@elsewhere.test');
    const { start, query } = await started(w);
    const error = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT));
    expect({ status: error.status, reason: error.details?.reason }).toEqual({ status: 403, reason: 'domain_not_allowed' });
    expect(error.message).toContain('Addresses of elsewhere.test may not sign in with Okta');
    expect(w.deps.sessions.items.size).toBe(0);

    const none = world({ sub: 'u1' });
    const second = await started(none);
    const noEmail = await refusal(completeOidcSignIn(none.deps, { flowToken: second.start.flowToken, query: second.query }, CLIENT));
    expect({ status: noEmail.status, reason: noEmail.details?.reason }).toEqual({ status: 403, reason: 'no_email' });
  });

  it("refuses a state that is not the flow's (400) before asking the provider, and spends the flow", async () => {
    const w = world();
    await addUser(w.users, 'ada@acme.test');
    const { start, query } = await started(w);
    const forged = new URLSearchParams(query);
    forged.set('state', 'forged');
    const error = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query: forged }, CLIENT));
    expect(error.status).toBe(400);
    expect(error.message).toContain('its state differs');
    expect(w.provider.exchanges).toEqual([]);
    expect((await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT))).status).toBe(400);
    expect(w.deps.sessions.items.size).toBe(0);
    expect(w.audit).toEqual([]);
  });

  it("refuses a callback without the flow's cookie, with another browser's, or after 10 minutes (400)", async () => {
    const w = world();
    await addUser(w.users, 'ada@acme.test');
    const { query } = await started(w);
    expect((await refusal(completeOidcSignIn(w.deps, { flowToken: undefined, query }, CLIENT))).status).toBe(400);
    const other = await started(w);
    expect((await refusal(completeOidcSignIn(w.deps, { flowToken: other.start.flowToken, query }, CLIENT))).status).toBe(400);
    const late = await started(w);
    w.clock.advance(600_001);
    const expired = await refusal(completeOidcSignIn(w.deps, { flowToken: late.start.flowToken, query: late.query }, CLIENT));
    expect(expired.status).toBe(400);
    expect(expired.message).toContain('has expired');
  });

  it("answers the provider's refusals as 401 (audited) and an unreachable provider as 503 (not audited)", async () => {
    for (const [kind, status] of [
      ['denied', 401],
      ['invalid', 401],
      ['unreachable', 503],
    ] as const) {
      const w = world();
      w.provider.answer = () => {
        throw new OidcProviderError(kind, kind === 'denied' ? 'The sign-in provider answered "access_denied".' : 'no');
      };
      const { start, query } = await started(w);
      const error = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, CLIENT));
      expect({ kind, status: error.status }).toEqual({ kind, status });
      expect(w.audit.map((record) => record.action)).toEqual(status === 503 ? [] : ['signInFailed']);
    }
  });

  it('counts the attempt against the IP first (429 when over), as the password sign-in', async () => {
    const w = world();
    await addUser(w.users, 'ada@acme.test');
    for (let i = 0; i < 30; i++) {
      const { start, query } = await started(w);
      await completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, { ...CLIENT, ip: '198.51.100.9' }).catch(() => undefined);
    }
    const { start, query } = await started(w);
    const limited = await refusal(completeOidcSignIn(w.deps, { flowToken: start.flowToken, query }, { ...CLIENT, ip: '198.51.100.9' }));
    expect(limited.status).toBe(429);
    expect(limited.headers?.['Retry-After']).toBeDefined();
  });
});

describe('OIDC settings and provider errors', () => {
  it('are null without an issuer or client id; https only (http on loopback); domains lower-cased', () => {
    expect(oidcSettingsFromValues({ issuer: '', clientId: 'x', label: '', allowedDomains: '', sealedClientSecret: '' })).toBeNull();
    expect(
      oidcSettingsFromValues({ issuer: 'https://idp.test', clientId: '', label: '', allowedDomains: '', sealedClientSecret: '' }),
    ).toBeNull();
    expect(
      oidcSettingsFromValues({
        issuer: 'https://idp.test',
        clientId: 'c',
        label: '',
        allowedDomains: ' Acme.TEST, @b.test ,',
        sealedClientSecret: ' v1:kms:abc ',
      }),
    ).toEqual({
      issuer: 'https://idp.test',
      clientId: 'c',
      label: 'OpenID Connect',
      allowedDomains: ['acme.test', 'b.test'],
      sealedClientSecret: 'v1:kms:abc',
      problem: null,
    });
    expect(
      oidcSettingsFromValues({ issuer: 'http://127.0.0.1:4000', clientId: 'c', label: 'L', allowedDomains: '', sealedClientSecret: '' })!
        .problem,
    ).toBeNull();
    expect(
      oidcSettingsFromValues({ issuer: 'http://idp.test', clientId: 'c', label: 'L', allowedDomains: '', sealedClientSecret: '' })!.problem,
    ).toContain('https');
    expect(
      oidcSettingsFromValues({ issuer: 'not a url', clientId: 'c', label: 'L', allowedDomains: '', sealedClientSecret: '' })!.problem,
    ).toContain('not a URL');
  });

  it('a network failure or a timeout is "unreachable"; anything else a failed check', () => {
    expect(providerErrorOf(new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') }), null).kind).toBe('unreachable');
    expect(providerErrorOf(Object.assign(new Error('timed out'), { name: 'TimeoutError' }), null).kind).toBe('unreachable');
    expect(providerErrorOf(new Error('unexpected JWT claim value encountered'), null).kind).toBe('invalid');
  });
});
