/**
 * The port of the dashboard's OpenID Connect sign-in (docs/dashboard.md, "Sign-in with OpenID Connect"):
 * the deployment's provider, as the use case (shared/usecases/dashboard/oidc-sign-in.ts) needs it. The
 * adapter (shared/adapters/oidc/openid-client-provider.ts) is openid-client; unit tests use a fake.
 */
import type { OidcClaims } from '../domain/dashboard/oidc';

export interface OidcAuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  /** PKCE S256 challenge of the flow's verifier. */
  codeChallenge: string;
}

export interface OidcCallbackChecks {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcProvider {
  /** Where to send the browser: the provider's authorization endpoint with the flow's parameters. */
  authorizationUrl(request: OidcAuthorizationRequest): Promise<URL>;
  /**
   * The callback's parameters (its query) checked (state, issuer), the code exchanged with the verifier,
   * the ID token validated (signature, issuer, audience, nonce, times): its claims, with the userinfo's
   * email when the ID token carried none. Throws OidcProviderError.
   */
  exchange(callbackQuery: URLSearchParams, checks: OidcCallbackChecks): Promise<OidcClaims>;
}

/**
 * Why the provider did not sign the person in:
 * - `unreachable`: no answer (network, timeout) or a 5xx: the sign-in is 503 and can be retried;
 * - `denied`: the provider sent the browser back with an `error` (the person cancelled, consent refused...);
 * - `invalid`: an answer that fails a check (state, issuer, signature, nonce, a refused code);
 * - `misconfigured`: the deployment's settings cannot work (a sealed client secret that does not open for
 *   this issuer and client id): 503, nothing the person can fix.
 */
export class OidcProviderError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'denied' | 'invalid' | 'misconfigured',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OidcProviderError';
  }
}
