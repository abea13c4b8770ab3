/**
 * selfsigned's `generate` (a key pair and its X.509 certificate), loaded on first use: selfsigned and its X.509
 * libraries take about 0.4 s of CPU to load, which a start that makes no key (its CAs cached:
 * ../cloud/tls/local-tls-cache.ts) does not pay. Used by the local CAs (../cloud/tls/local-tls.ts) and the ACM emulator
 * (./acm/issuer.ts).
 */
import type { generate as Generate } from 'selfsigned';

export const generate: typeof Generate = (...args) => (require('selfsigned') as { generate: typeof Generate }).generate(...args);
