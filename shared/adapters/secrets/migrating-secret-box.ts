/**
 * A SecretBox that changes scheme without a migration run: it seals with the new box and opens strings
 * of the previous scheme with the previous box (every other string goes to the new box, which refuses
 * what it cannot open). Stored secrets move to the new scheme as they are re-sealed (a rotated DKIM key,
 * a new webhook secret); the old ones keep opening meanwhile.
 *
 * Used by the embedded cloud once it has KMS (shared/services/secret-box-from-environment.ts): its data folders hold `v1:local:`
 * secrets sealed with the local key file, while new ones are `v1:kms:`. The context binding is each
 * box's own, so a secret opens only with its own context whichever scheme sealed it.
 */
import { schemeOf, type SealScheme } from './sealed-string';
import type { SecretBox } from '../../ports/secret-box';

export function migratingSecretBox(next: SecretBox, previous: { scheme: SealScheme; box: SecretBox }): SecretBox {
  return {
    seal: (plaintext, context) => next.seal(plaintext, context),
    open: (sealed, context) => (schemeOf(sealed) === previous.scheme ? previous.box : next).open(sealed, context),
  };
}
