/**
 * SecretBox on the embedded cloud: AES-256-GCM with the key of a local key file.
 * Sealed: `v1:local:<base64 of nonce (12) | ciphertext | tag (16)>`; the additional data is the scheme
 * and the canonical context, so a ciphertext opens only with its own context.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { canonicalContext, formatSealed, parseSealed } from './sealed-string';
import { SecretBoxError, type SecretBox } from '../../ports/secret-box';
import { ensureLocalKeyFile } from './local-key-file';

export { ensureLocalKeyFile } from './local-key-file';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class LocalSecretBox implements SecretBox {
  private key: Buffer | undefined;

  /** The key file is read (or created) on first use. */
  constructor(private readonly keyFile: string) {}

  async seal(plaintext: string, context: Record<string, string>): Promise<string> {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.getKey(), nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return formatSealed('local', Buffer.concat([nonce, ciphertext, cipher.getAuthTag()]));
  }

  async open(sealed: string, context: Record<string, string>): Promise<string> {
    const payload = parseSealed(sealed, 'local');
    if (payload.length < NONCE_BYTES + TAG_BYTES) throw new SecretBoxError('Sealed secret is truncated');
    const nonce = payload.subarray(0, NONCE_BYTES);
    const tag = payload.subarray(payload.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.getKey(), nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(additionalData(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(payload.subarray(NONCE_BYTES, payload.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new SecretBoxError('Sealed secret does not open: altered, sealed for another context, or with another key', { cause: error });
    }
  }

  private getKey(): Buffer {
    this.key ??= ensureLocalKeyFile(this.keyFile);
    return this.key;
  }
}

function additionalData(context: Record<string, string>): Buffer {
  return Buffer.from(JSON.stringify(['v1:local', canonicalContext(context)]), 'utf8');
}
