/**
 * The secrets key (KMS in AWS, a local key file on the embedded cloud), created on first use, and what
 * uses it: DKIM keys of sending domains and signed links.
 */
import type { Config } from '../config/config';
import { cachingSecretBox } from '../adapters/secrets/caching-secret-box';
import { secretBoxFromEnv } from './secret-box-from-environment';
import { lazySecretBox } from '../adapters/secrets/lazy-secret-box';
import { SendingDomainFactsCache } from '../usecases/delivery/sending-domain-facts';
import { LinkSigner } from '../usecases/links/link-signing';
import type { CoreServices } from './core';

export function buildSecrets(config: Config, core: Pick<CoreServices, 'domains' | 'linkKeys' | 'clock'>) {
  // Created on first use: only the functions that hold a grant on the secrets key touch it.
  const secretBox = cachingSecretBox(lazySecretBox(() => secretBoxFromEnv(process.env, config)));
  const { domains, linkKeys, clock } = core;
  return {
    secretBox,
    /** Sending domains' facts for the send worker, cached (sending-domain-facts.ts); their keys stay sealed: SES signs. */
    sendingDomains: new SendingDomainFactsCache({ domains, clock }),
    /** Signed links (docs/tracking.md): the send worker's `urls()`, the links group's `resolve`, the admin CLI's `rotateLinkKey`. */
    linkSigning: new LinkSigner({ linkKeys, secretBox, clock, baseUrl: config.linksBaseUrl }),
  };
}

export type SecretServices = ReturnType<typeof buildSecrets>;
