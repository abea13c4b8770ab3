/**
 * The secrets key (KMS in AWS, a local key file on the embedded cloud), created on first use, and what
 * uses it: sealed DKIM keys and DNS host credentials, and signed links.
 */
import { cachingSecretBox } from '../adapters/secrets/caching-secret-box';
import { secretBoxFromEnv } from './secret-box-from-environment';
import { lazySecretBox } from '../adapters/secrets/lazy-secret-box';
import { LinkSigner } from '../usecases/links/link-signing';
import { LinkKeyRepository } from '../adapters/store/link-keys';
import type { Platform } from './platform';

export function buildSecrets({ config, table, clock }: Pick<Platform, 'config' | 'table' | 'clock'>) {
  // Created on first use: only the functions that hold a grant on the secrets key touch it.
  const secretBox = cachingSecretBox(lazySecretBox(() => secretBoxFromEnv(process.env, config)));
  const linkKeys = new LinkKeyRepository(table);
  return {
    secretBox,
    /** The link keys (sealed): what linkSigning signs with; the admin CLI rotates them. */
    linkKeys,
    /** Signed links (docs/tracking.md): the send worker's `urls()`, the links group's `resolve`, the admin CLI's `rotateLinkKey`. */
    linkSigning: new LinkSigner({ linkKeys, secretBox, clock, baseUrl: config.linksBaseUrl }),
  };
}

export type SecretServices = ReturnType<typeof buildSecrets>;
