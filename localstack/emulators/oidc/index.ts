/**
 * The local OpenID provider (docs/local-cloud/oidc.md): oidc-provider 9 (panva, MIT; a certified OpenID
 * Provider implementation) on a loopback port, so the dashboard's sign-in with OpenID Connect runs end to end
 * on the local cloud and in tests, with no account anywhere.
 *
 * - One client, `mailservice-dashboard` (LOCAL_OIDC_CLIENT_ID): public (no secret), authorization code
 *   flow only, PKCE S256 required, its redirect URI exactly the dashboard's callback on the local API
 *   (`<api>/dashboard/sign-in/oidc/callback`, and its `localhost` twin): anything else is refused, as a
 *   real provider refuses it.
 * - Sign-in is oidc-provider's development login form: the login is the email address (any password).
 *   The account's claims are `{sub: <login>, email: <login>, email_verified: true}`; a login written
 *   `unverified:<address>` gives `email_verified: false` (the refusal's test). Consent is implied (a
 *   first-party client: its grant of `openid email` is made on sign-in).
 * - Signing keys (RS256) and cookie keys are made at each start: nothing persists; an ID token of a
 *   previous start does not verify.
 *
 * ESM-only: loaded with dynamic import(), as fauxqs is.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Account, OidcContext } from 'oidc-provider';
import { listenHttp } from '../http-server';

export const LOCAL_OIDC_CLIENT_ID = 'mailservice-dashboard';
export const LOCAL_OIDC_LABEL = 'the local OpenID provider';
/** The login prefix whose account's email is not verified. */
export const UNVERIFIED_LOGIN_PREFIX = 'unverified:';

export interface OidcEmulator {
  /** The issuer identifier (its discovery document: `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  label: string;
  stop(): Promise<void>;
}

export interface OidcEmulatorOptions {
  host?: string;
  port?: number;
  /** The exact redirect URIs of the dashboard's client. */
  redirectUris: string[];
  /**
   * Also registers a confidential client, `mailservice-dashboard-confidential`, with this secret
   * (client_secret_basic; PKCE still required): the sealed-secret path's tests.
   */
  confidentialSecret?: string;
  log?: (message: string) => void;
}

/** The claims of a login: the email is the login (lower-cased); `unverified:` makes it unverified. */
export function accountClaims(login: string): { sub: string; email: string; email_verified: boolean } {
  const unverified = login.startsWith(UNVERIFIED_LOGIN_PREFIX);
  const email = (unverified ? login.slice(UNVERIFIED_LOGIN_PREFIX.length) : login).trim().toLowerCase();
  return { sub: login, email, email_verified: !unverified };
}

export async function startOidcEmulator(options: OidcEmulatorOptions): Promise<OidcEmulator> {
  const { default: Provider } = await import('oidc-provider');
  // Listen first: the issuer is the URL of the port we got.
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  const issuer = await listenHttp(server, { host: options.host, port: options.port });

  const provider = new Provider(issuer, providerConfiguration(options, newSigningKey()));
  provider.on('server_error', (_ctx: unknown, error: unknown) =>
    options.log?.(`local OpenID provider: ${(error as Error).stack ?? String(error)}`),
  );
  handler = provider.callback();
  options.log?.(`local OpenID provider at ${issuer} (client ${LOCAL_OIDC_CLIENT_ID})`);

  let stopping: Promise<void> | undefined;
  return {
    issuer,
    clientId: LOCAL_OIDC_CLIENT_ID,
    label: LOCAL_OIDC_LABEL,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}

/** A new RS256 signing key, as a private JWK (made at each start: nothing persists). */
function newSigningKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: `local-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

/** The clients: the dashboard's public one, and the confidential one when options.confidentialSecret is set. */
function dashboardClients(options: OidcEmulatorOptions): Record<string, unknown>[] {
  return [
    {
      client_id: LOCAL_OIDC_CLIENT_ID,
      token_endpoint_auth_method: 'none',
      redirect_uris: options.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
    ...(options.confidentialSecret
      ? [
          {
            client_id: `${LOCAL_OIDC_CLIENT_ID}-confidential`,
            client_secret: options.confidentialSecret,
            token_endpoint_auth_method: 'client_secret_basic',
            redirect_uris: options.redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ]
      : []),
  ];
}

/** oidc-provider's configuration: the clients, PKCE, the keys, the claims, implied consent and an HTML error page. */
function providerConfiguration(options: OidcEmulatorOptions, signingKey: Record<string, unknown>): Record<string, unknown> {
  return {
    clients: dashboardClients(options),
    // PKCE for every client (oidc-provider only allows S256).
    pkce: { required: () => true },
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The email claims in the ID token itself, as most providers put them (the dashboard also reads userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    // Short-lived artifacts, as a real provider's (and without oidc-provider's notice about its defaults).
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    findAccount: (_ctx: unknown, sub: string): Account => ({ accountId: sub, claims: () => accountClaims(sub) }),
    // A first-party client: consent is implied (oidc-provider's "skip consent" recipe).
    loadExistingGrant: async (ctx: OidcContext) => {
      const { client, session, result, provider: p } = ctx.oidc;
      const grantId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return p.Grant.find(grantId);
      const grant = new p.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<!DOCTYPE html><title>Local OpenID provider: error</title><h1>${escapeHtml(out.error ?? 'error')}</h1><p>${escapeHtml(out.error_description ?? '')}</p>`;
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
