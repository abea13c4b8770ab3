/**
 * Port: secrets stored at rest (DKIM private keys, webhook signing secrets): sealed before they
 * are written, opened when used. KMS in AWS (shared/adapters/aws/kms-secret-box.ts), a local key file on the
 * embedded cloud (shared/adapters/secrets/local-secret-box.ts); shared/services/secret-box-from-environment.ts picks one.
 *
 * `context` binds a ciphertext to its owner, e.g. `{ purpose: 'dkim', domain_id }`: it is the KMS
 * EncryptionContext or the AES-GCM additional data, so opening needs the same context and a ciphertext
 * copied onto another record does not open. The context is not secret and not stored in the sealed string.
 *
 * Sealed strings are self-describing: `v1:<scheme>:<base64>`, scheme `local` or `kms`
 * (shared/adapters/secrets/sealed-string.ts).
 */
export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  /** Throws SecretBoxError when the string is not ours, was altered, or the context differs. */
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

/** A sealed secret that cannot be opened; the message never contains plaintext or key material. */
export class SecretBoxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}
