/**
 * The sealed string the SecretBox adapters write and read (the port: shared/ports/secret-box.ts):
 * `v1:<scheme>:<base64>`, scheme `local` or `kms`, and the canonical form of a context.
 */
import { SecretBoxError } from '../../ports/secret-box';

export type SealScheme = 'local' | 'kms';

export const SEALED_VERSION = 'v1';

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
