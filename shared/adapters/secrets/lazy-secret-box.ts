import type { SecretBox } from '../../ports/secret-box';

/** A secret box built on first use, so functions that never touch secrets never need its settings. */
export function lazySecretBox(create: () => SecretBox): SecretBox {
  let box: SecretBox | undefined;
  const get = () => (box ??= create());
  return {
    seal: (plaintext, context) => get().seal(plaintext, context),
    open: (sealed, context) => get().open(sealed, context),
  };
}
