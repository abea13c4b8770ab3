import type { SecretBox } from '../../ports/secret-box';

/**
 * Remembers opened secrets for the life of the process (a Lambda container), so a worker does not pay
 * a KMS Decrypt per message for the same DKIM key. Bounded; oldest entries are dropped first.
 */
export function cachingSecretBox(inner: SecretBox, maxEntries = 256): SecretBox {
  const opened = new Map<string, string>();
  const keyOf = (sealed: string, context: Record<string, string>) =>
    `${sealed}|${JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)))}`;
  return {
    seal: (plaintext, context) => inner.seal(plaintext, context),
    async open(sealed, context) {
      const key = keyOf(sealed, context);
      const hit = opened.get(key);
      if (hit !== undefined) return hit;
      const plaintext = await inner.open(sealed, context);
      if (opened.size >= maxEntries) opened.delete(opened.keys().next().value!);
      opened.set(key, plaintext);
      return plaintext;
    },
  };
}
