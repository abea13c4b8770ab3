/**
 * The port for secrets stored at rest (DKIM private keys, webhook signing secrets): sealed before they
 * are written, opened when used. KMS in AWS (shared/adapters/aws/kms-secret-box.ts), a local key file on the
 * embedded cloud (./local-secret-box.ts); shared/services/secret-box-from-environment.ts picks one.
 *
 * `context` binds a ciphertext to its owner, e.g. `{ purpose: 'dkim', domain_id }`: it is the KMS
 * EncryptionContext or the AES-GCM additional data, so opening needs the same context and a ciphertext
 * copied onto another record does not open. The context is not secret and not stored in the sealed string.
 *
 * Sealed strings are self-describing: `v1:<scheme>:<base64>`, scheme `local` or `kms`.
 */
export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  /** Throws SecretBoxError when the string is not ours, was altered, or the context differs. */
  open(sealed: string, context: Record<string, string>): Promise<string>;
}

export type SealScheme = 'local' | 'kms';

export const SEALED_VERSION = 'v1';

/** A sealed secret that cannot be opened; the message never contains plaintext or key material. */
export class SecretBoxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretBoxError';
  }
}

export function formatSealed(scheme: SealScheme, payload: Buffer): string {
  return `${SEALED_VERSION}:${scheme}:${payload.toString('base64')}`;
}

const SEALED = /^(v\d+):([a-z0-9]+):([A-Za-z0-9+/]+={0,2})$/;

/** The scheme of a sealed string of this version (`local`, `kms`...), or undefined when it is not one. */
export function schemeOf(sealed: string): string | undefined {
  const match = SEALED.exec(sealed);
  return match && match[1] === SEALED_VERSION ? match[2] : undefined;
}

/** The payload of a sealed string of this scheme; throws SecretBoxError for another version or scheme. */
export function parseSealed(sealed: string, scheme: SealScheme): Buffer {
  const match = SEALED.exec(sealed);
  if (!match) throw new SecretBoxError('Not a sealed secret');
  const [, version, found, payload] = match;
  if (version !== SEALED_VERSION) throw new SecretBoxError(`Unsupported sealed secret version ${version}`);
  if (found !== scheme) throw new SecretBoxError(`Sealed with "${found}", this box opens "${scheme}" secrets`);
  return Buffer.from(payload!, 'base64');
}

/**
 * Validates a context (non-empty: a secret is always bound to an owner) and returns it in a canonical
 * form: entries sorted by key, so the same map always gives the same bytes.
 */
export function canonicalContext(context: Record<string, string>): [string, string][] {
  const entries = Object.entries(context);
  if (entries.length === 0) throw new SecretBoxError('A secret must be sealed with a non-empty context (its owner)');
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw new SecretBoxError(`Context value of "${key}" must be a string`);
  }
  return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
