/** `rotate-link-key` and `oidc seal-secret` (../admin.ts): the secrets key (KMS, or the local key file) and the link keys. */
import { oidcSecretContext } from '#shared/domain/dashboard/oidc';
import { buildSecrets } from '#shared/services/secrets';
import { UNKNOWN_ACCOUNT_AUDIT } from '#shared/usecases/dashboard/sign-in';
import type { Command } from './context';

export const rotateLinkKeyCommand: Command = async ({ platform, audited }) => {
  // Send workers pick the new key up within CURRENT_KEY_TTL_MS; every older key keeps verifying.
  const key = await buildSecrets(platform).linkSigning.rotateLinkKey();
  return audited(UNKNOWN_ACCOUNT_AUDIT, { link_key: key.kid }, { link_key: key.kid, created_at: key.created_at });
};

export const sealOidcSecretCommand: Command = async ({ platform, oidc, clientSecret }) => {
  // Sealed for this issuer and client only; never stored or printed in plain text.
  const sealed = await buildSecrets(platform).secretBox.seal(clientSecret!, oidcSecretContext(oidc!));
  return { oidc_client_secret_sealed: sealed, issuer: oidc!.issuer, client_id: oidc!.clientId };
};
