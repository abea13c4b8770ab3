/**
 * The OidcProvider port over openid-client v6 (panva, MIT; docs/dashboard.md, "Sign-in with OpenID
 * Connect"): discovery of the issuer's metadata (once per process, again after a failure), the
 * authorization URL (code flow, PKCE S256, state, nonce), and the code's exchange, in which openid-client
 * checks the callback (state, `iss`), the token answer and the ID token (signature against the issuer's
 * JWKS, issuer, audience, nonce, times). A client secret makes it a confidential client (client_secret_basic,
 * or client_secret_post when the provider offers only that); without one it is a public client (PKCE only).
 *
 * openid-client is ESM-only: imported on first use (the Lambda bundle carries it; a function that never
 * signs anyone in through OIDC never loads it).
 */
import type { OidcClaims } from '../../domain/dashboard/oidc';
import { isLoopbackHost } from '../../domain/dashboard/oidc';
import { OidcProviderError, type OidcAuthorizationRequest, type OidcCallbackChecks, type OidcProvider } from '../../ports/oidc-provider';

type OpenIdClient = typeof import('openid-client');
type Configuration = import('openid-client').Configuration;

export interface OpenIdClientProviderOptions {
  issuer: string;
  clientId: string;
  /** The client secret, opened (from OIDC_CLIENT_SECRET_SEALED); null: a public client. */
  clientSecret: () => Promise<string | null>;
  /** Each request to the provider gives up after this long (default 10 s: the sign-in is a person waiting). */
  timeoutSeconds?: number;
}

const SCOPE = 'openid email';

/** A failure of openid-client (or of the network under it) as the port's error. */
export function providerErrorOf(error: unknown, client: OpenIdClient | null): OidcProviderError {
  if (error instanceof OidcProviderError) return error;
  const err = error as {
    name?: string;
    message?: string;
    code?: string;
    status?: number;
    cause?: unknown;
    error?: string;
    error_description?: string;
  };
  // fetch failed (refused, reset, DNS) or timed out.
  if (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    (error instanceof TypeError && (err.message === 'fetch failed' || err.cause !== undefined))
  ) {
    return new OidcProviderError('unreachable', 'The sign-in provider could not be reached.', { cause: error });
  }
  if (client && error instanceof client.AuthorizationResponseError) {
    return new OidcProviderError(
      'denied',
      `The sign-in provider answered "${err.error}"${err.error_description ? `: ${err.error_description}` : ''}.`,
      { cause: error },
    );
  }
  if (client && error instanceof client.ResponseBodyError) {
    if ((err.status ?? 0) >= 500)
      return new OidcProviderError('unreachable', `The sign-in provider failed (HTTP ${err.status}).`, { cause: error });
    return new OidcProviderError(
      'invalid',
      `The sign-in provider refused the sign-in ("${err.error}"${err.error_description ? `: ${err.error_description}` : ''}).`,
      { cause: error },
    );
  }
  // An unexpected status from the provider: 5xx is the provider being down.
  const status = (err?.cause as { status?: number } | undefined)?.status;
  if (err?.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && typeof status === 'number' && status >= 500) {
    return new OidcProviderError('unreachable', `The sign-in provider failed (HTTP ${status}).`, { cause: error });
  }
  return new OidcProviderError('invalid', `The sign-in provider's answer failed a check: ${err?.message ?? String(error)}.`, {
    cause: error,
  });
}

export class OpenIdClientProvider implements OidcProvider {
  private configuration: Promise<{ client: OpenIdClient; config: Configuration }> | null = null;

  constructor(private readonly options: OpenIdClientProviderOptions) {}

  /** The discovered configuration, shared by the process's sign-ins; a failed discovery is tried again next time. */
  private configured(): Promise<{ client: OpenIdClient; config: Configuration }> {
    if (!this.configuration) {
      this.configuration = this.discover();
      this.configuration.catch(() => {
        this.configuration = null;
      });
    }
    return this.configuration;
  }

  private async discover(): Promise<{ client: OpenIdClient; config: Configuration }> {
    const client = await import('openid-client');
    const issuer = new URL(this.options.issuer);
    const secret = await this.options.clientSecret();
    // http only for a loopback issuer (the local cloud's provider); settings refuse it elsewhere.
    const execute = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname) ? [client.allowInsecureRequests] : [];
    const timeout = this.options.timeoutSeconds ?? 10;
    try {
      const discovered = await client.discovery(issuer, this.options.clientId, secret ?? undefined, secret ? undefined : client.None(), {
        execute,
        timeout,
      });
      if (!secret) return { client, config: discovered };
      // A confidential client authenticates with client_secret_basic (RFC 8414's default, and what a provider
      // registers a web client with unless told otherwise), or client_secret_post when the provider offers only that.
      const metadata = discovered.serverMetadata();
      const methods = metadata.token_endpoint_auth_methods_supported;
      const post = methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
      const config = new client.Configuration(
        metadata,
        this.options.clientId,
        secret,
        post ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret),
      );
      for (const option of execute) option(config);
      config.timeout = timeout;
      return { client, config };
    } catch (error) {
      throw providerErrorOf(error, client);
    }
  }

  async authorizationUrl(request: OidcAuthorizationRequest): Promise<URL> {
    const { client, config } = await this.configured();
    return client.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: SCOPE,
      response_type: 'code',
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  async exchange(callbackQuery: URLSearchParams, checks: OidcCallbackChecks): Promise<OidcClaims> {
    const { client, config } = await this.configured();
    // The callback as the provider sent it to the registered redirect URI (openid-client takes the
    // redirect_uri of the token request from it).
    const currentUrl = new URL(checks.redirectUri);
    currentUrl.search = callbackQuery.toString();
    try {
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new OidcProviderError('invalid', 'The sign-in provider answered no ID token.');
      if (typeof claims.email === 'string') return { sub: claims.sub, email: claims.email, email_verified: claims.email_verified };
      // A provider that keeps the email for the userinfo endpoint (the ID token's claims conformed to the scope).
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      return { sub: claims.sub, email: info.email, email_verified: info.email_verified };
    } catch (error) {
      throw providerErrorOf(error, client);
    }
  }
}
