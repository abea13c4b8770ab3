/**
 * Dashboard sign-in through the deployment's OpenID Connect provider (docs/dashboard.md, "Sign-in with
 * OpenID Connect"): the settings (OIDC_*) and the provider (openid-client, loaded on first use), or null
 * when the deployment has none. The client secret stays sealed in the settings (OIDC_CLIENT_SECRET_SEALED,
 * sealed by `npm run admin -- oidc seal-secret`) and is opened with the secrets key on the first sign-in.
 */
import type { Config } from '../config/config';
import { oidcSecretContext } from '../domain/dashboard/oidc';
import { OpenIdClientProvider } from '../adapters/oidc/openid-client-provider';
import { OidcProviderError } from '../ports/oidc-provider';
import type { OidcSetup } from '../usecases/dashboard/oidc-sign-in';
import type { SecretServices } from './secrets';

export function buildOidc(config: Pick<Config, 'oidc'>, secrets: Pick<SecretServices, 'secretBox'>): { oidc: OidcSetup | null } {
  const settings = config.oidc;
  if (!settings) return { oidc: null };
  const sealed = settings.sealedClientSecret;
  const provider = new OpenIdClientProvider({
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: async () => {
      if (!sealed) return null;
      try {
        return await secrets.secretBox.open(sealed, oidcSecretContext(settings));
      } catch (error) {
        // Sealed for another issuer or client, by another key, or not a sealed value: the settings are wrong.
        throw new OidcProviderError(
          'misconfigured',
          'OIDC_CLIENT_SECRET_SEALED does not open for this issuer and client id: seal the secret again with `admin oidc seal-secret` for them',
          { cause: error },
        );
      }
    },
  });
  return { oidc: { settings, provider } };
}

export type OidcServices = ReturnType<typeof buildOidc>;
