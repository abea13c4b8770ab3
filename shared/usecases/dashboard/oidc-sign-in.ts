/**
 * Signing in to the dashboard through the deployment's OpenID Connect provider (docs/dashboard.md,
 * "Sign-in with OpenID Connect"), beside passwords. Two steps:
 *
 *   start     a flow: random state, nonce and PKCE verifier (S256), kept server-side (OIDCFLOW#<hash of the
 *             flow token>, 10 minutes: shared/adapters/store/oidc-flows.ts) and tied to the browser by the
 *             flow token in an HttpOnly cookie; the answer is the provider's authorization URL.
 *   complete  the callback: the client's IP counted (RATE_LIMITS.signInPerIp, as a password attempt); the
 *             flow taken (deleted: one use, whatever the outcome) by the cookie's token and its state
 *             compared with the callback's; the provider's answer and ID token checked and the code
 *             exchanged (the OidcProvider port: openid-client); the email must be there, verified by the
 *             provider and of an allowed domain; the address counted (signInPerEmail); the member with that
 *             address (case-insensitive, as the password path: the store's key is the lower-cased address)
 *             signed in with a new session (./sessions.ts), exactly as the password path does. An address
 *             no member has is refused: this never creates a user (the admin CLI and invitations do).
 *
 * The audit log (docs/audit-log.md) gets `signIn` and `signInFailed` as from the password path, with
 * `resource_ids.method: "oidc"`: refused identities (unverified, domain, no member) and provider answers
 * that fail a check are `signInFailed` (a known member: in their account; else the pseudo-account
 * `deployment` with the address's hash only). Flow problems before any identity (no flow, state mismatch)
 * and an unreachable provider record nothing: no one was refused.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  OIDC_AUDIT_METHOD,
  OIDC_FLOW_TTL_MS,
  oidcFlowExpired,
  oidcIdentity,
  oidcRedirectUri,
  type OidcClaims,
  type OidcFlow,
  type OidcSettings,
} from '../../domain/dashboard/oidc';
import { isTokenShaped, sessionTokenHash } from '../../domain/dashboard/session-token';
import type { DashboardUser } from '../../domain/dashboard/user';
import { AppError, ForbiddenError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '../../domain/errors';
import type { Clock } from '../../ports/clock';
import { OidcProviderError, type OidcProvider } from '../../ports/oidc-provider';
import type { DashboardUserRepository } from '../../adapters/store/dashboard-users';
import type { OidcFlowRepository } from '../../adapters/store/oidc-flows';
import type { RateLimitRepository } from '../../adapters/store/rate-limits';
import type { StoredSession } from '../../adapters/store/sessions';
import type { AuditDeps } from '../audit/record';
import { startSession, type SessionDeps } from './sessions';
import { auditSignIn, countAttempt, signInSubjects, type SignInClient } from './sign-in';

/** The deployment's provider: its settings and the port. */
export interface OidcSetup {
  settings: OidcSettings;
  provider: OidcProvider;
}

export interface OidcSignInDeps {
  /** null: OpenID Connect is not configured (the sign-in page offers passwords only). */
  oidc: OidcSetup | null;
  oidcFlows: Pick<OidcFlowRepository, 'create' | 'take'>;
  dashboardUsers: Pick<DashboardUserRepository, 'getByEmail'>;
  rateLimits: Pick<RateLimitRepository, 'hit'>;
  sessions: SessionDeps['sessions'];
  clock: Clock;
  /** The audit log; without it (unit tests) nothing is recorded. */
  auditLog?: AuditDeps['auditLog'];
}

/** A refusal of the OIDC sign-in: the sign-in page shows `message` with `status` (never a 500). */
export const START_AGAIN = 'Start again from the sign-in page.';

const random = () => randomBytes(32).toString('base64url');
const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

function requireOidc(deps: Pick<OidcSignInDeps, 'oidc'>): OidcSetup {
  if (!deps.oidc)
    throw new AppError(
      404,
      'not_found',
      'Sign-in with OpenID Connect is not configured on this deployment: sign in with your email and password.',
    );
  if (deps.oidc.settings.problem)
    throw new ServiceUnavailableError(
      `Sign-in with ${deps.oidc.settings.label} is misconfigured: ${deps.oidc.settings.problem}. Sign in with your email and password, and tell the operator.`,
    );
  return deps.oidc;
}

/** The provider's error as the sign-in page's: 503 when it could not be reached, else 401. */
function refusalOf(error: unknown, label: string): AppError {
  if (error instanceof OidcProviderError) {
    if (error.kind === 'unreachable')
      return new ServiceUnavailableError(`${label} could not be reached: try again in a moment, or sign in with your email and password.`);
    if (error.kind === 'misconfigured')
      return new ServiceUnavailableError(
        `Sign-in with ${label} is misconfigured: ${error.message}. Sign in with your email and password, and tell the operator.`,
      );
    if (error.kind === 'denied')
      return new UnauthorizedError(
        `${label} did not sign you in (${error.message.replace(/^The sign-in provider answered /, '').replace(/\.$/, '')}). ${START_AGAIN}`,
      );
    return new UnauthorizedError(`${label} did not sign you in: ${error.message} ${START_AGAIN}`);
  }
  throw error;
}

export interface StartedOidcSignIn {
  /** For the browser's HttpOnly cookie only: its hash keys the flow. */
  flowToken: string;
  authorizationUrl: URL;
  expiresAt: string;
}

/** Starts a flow for a browser on `origin` (the dashboard's), to come back to `next` (already a safe dashboard path). */
export async function startOidcSignIn(
  deps: Pick<OidcSignInDeps, 'oidc' | 'oidcFlows' | 'clock' | 'rateLimits'>,
  request: { origin: string; next: string },
  client: Pick<SignInClient, 'ip'>,
): Promise<StartedOidcSignIn> {
  const { provider, settings } = requireOidc(deps);
  const now = deps.clock.now();
  // Each start writes a flow item: counted per IP before it is written (RATE_LIMITS.oidcStartPerIp).
  await countAttempt(deps, signInSubjects('', client.ip).ip, 'oidcStartPerIp', 'for sign-ins started from this IP address', now.getTime());
  const flow: OidcFlow = {
    state: random(),
    nonce: random(),
    code_verifier: random(),
    redirect_uri: oidcRedirectUri(request.origin),
    next: request.next,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + OIDC_FLOW_TTL_MS).toISOString(),
  };
  let authorizationUrl: URL;
  try {
    authorizationUrl = await provider.authorizationUrl({
      redirectUri: flow.redirect_uri,
      state: flow.state,
      nonce: flow.nonce,
      codeChallenge: s256(flow.code_verifier),
    });
  } catch (error) {
    throw refusalOf(error, settings.label);
  }
  const flowToken = random();
  await deps.oidcFlows.create(sessionTokenHash(flowToken), flow);
  return { flowToken, authorizationUrl, expiresAt: flow.expires_at };
}

function sameSecret(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export interface CompletedOidcSignIn {
  user: DashboardUser;
  token: string;
  session: StoredSession;
  /** Where the flow was to end (a safe dashboard path). */
  next: string;
}

/** The flow this browser started, taken (one use, deleted whatever happens next): 400 when none, expired, or its state differs. */
async function takeFlow(
  deps: Pick<OidcSignInDeps, 'oidcFlows' | 'clock'>,
  settings: OidcSettings,
  request: { flowToken: string | undefined; query: URLSearchParams },
): Promise<OidcFlow> {
  const flow = isTokenShaped(request.flowToken) ? await deps.oidcFlows.take(sessionTokenHash(request.flowToken)) : null;
  if (!flow)
    throw new ValidationError(
      `This sign-in with ${settings.label} is not under way in this browser (it expired, was already used, or was started elsewhere). ${START_AGAIN}`,
    );
  if (oidcFlowExpired(flow, deps.clock.now()))
    throw new ValidationError(`This sign-in with ${settings.label} took more than 10 minutes and has expired. ${START_AGAIN}`);
  if (!sameSecret(request.query.get('state'), flow.state))
    throw new ValidationError(
      `The answer from ${settings.label} does not belong to the sign-in this browser started (its state differs). ${START_AGAIN}`,
    );
  return flow;
}

/** The provider's answer checked and the code exchanged for the ID token's claims; a refusal (not an outage) is audited. */
async function exchangeCode(
  deps: OidcSignInDeps,
  { provider, settings }: OidcSetup,
  flow: OidcFlow,
  query: URLSearchParams,
  client: SignInClient,
): Promise<OidcClaims> {
  try {
    return await provider.exchange(query, {
      redirectUri: flow.redirect_uri,
      state: flow.state,
      nonce: flow.nonce,
      codeVerifier: flow.code_verifier,
    });
  } catch (error) {
    const refusal = refusalOf(error, settings.label);
    if (refusal.status !== 503) await auditOidc(deps, client, 'signInFailed', refusal.status, null, null);
    throw refusal;
  }
}

/**
 * The callback: `flowToken` is the browser's cookie (undefined when it sent none), `query` the callback's
 * query string as the provider sent it. Throws AppErrors (400 flow, 401 provider, 403 refused, 429, 503).
 */
export async function completeOidcSignIn(
  deps: OidcSignInDeps,
  request: { flowToken: string | undefined; query: URLSearchParams },
  client: SignInClient,
): Promise<CompletedOidcSignIn> {
  const oidc = requireOidc(deps);
  const { settings } = oidc;
  const nowMs = deps.clock.now().getTime();
  await countAttempt(deps, signInSubjects('', client.ip).ip, 'signInPerIp', 'for sign-ins from this IP address', nowMs);
  const flow = await takeFlow(deps, settings, request);
  const claims = await exchangeCode(deps, oidc, flow, request.query, client);

  const identity = oidcIdentity(claims, settings.allowedDomains, settings.label);
  if (!identity.ok) {
    const known = identity.email ? await deps.dashboardUsers.getByEmail(identity.email) : null;
    await auditOidc(deps, client, 'signInFailed', 403, known, identity.email);
    throw new ForbiddenError(identity.message, 'forbidden', { details: { reason: identity.reason } });
  }
  await countAttempt(
    deps,
    signInSubjects(identity.email, client.ip).email,
    'signInPerEmail',
    'for sign-ins with this email address',
    nowMs,
  );

  const user = await deps.dashboardUsers.getByEmail(identity.email);
  if (!user) {
    await auditOidc(deps, client, 'signInFailed', 403, null, identity.email);
    throw new ForbiddenError(
      `${identity.email} is not a member of any dashboard account here. Ask an owner or admin of your account to invite this address (signing in with ${settings.label} never creates a member).`,
      'forbidden',
      { details: { reason: 'no_member' } },
    );
  }
  const { token, session } = await startSession(deps, user);
  await auditOidc(deps, client, 'signIn', 200, user, null);
  return { user, token, session, next: flow.next };
}

/** The sign-in's audit record, as the password path's (./sign-in.ts), with the method. */
function auditOidc(
  deps: OidcSignInDeps,
  client: SignInClient,
  action: 'signIn' | 'signInFailed',
  status: number,
  user: DashboardUser | null,
  email: string | null,
): Promise<void> {
  const emailHash = !user && email ? signInSubjects(email, client.ip).email.slice('email:'.length) : null;
  return auditSignIn(deps, client, action, status, user, emailHash, OIDC_AUDIT_METHOD);
}
