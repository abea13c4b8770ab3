/**
 * The emulator's ciphertext blobs: real AES-256-GCM under the KMS key's own 256-bit key material, with the
 * key id inside the blob and the encryption context bound as additional authenticated data.
 *
 * Format (all offsets in bytes; the format is ours, AWS's own blob format is not public):
 *
 *   0        1 byte   format version, 0x01
 *   1..16    16 bytes the KMS key id (a UUID, its 16 raw bytes)
 *   17..28   12 bytes random GCM nonce
 *   29..n-17          the encrypted plaintext (same length as the plaintext, 1..4096)
 *   n-16..n  16 bytes GCM authentication tag
 *
 * The additional authenticated data is the 17-byte header followed by the canonical encryption context
 * (the UTF-8 JSON of its [key, value] pairs sorted by key), so a blob opens only under its own key id and
 * with exactly the same pairs in any order. That is KMS's rule: "If the encryption context provided in the
 * decryption request is not an exact, case-sensitive match, the decrypt request fails. Only the order of
 * the key-value pairs in the encryption context can vary."
 * (https://docs.aws.amazon.com/kms/latest/developerguide/encrypt_context.html). An absent context and an
 * empty one are the same context (both serialise to `[]`).
 *
 * As in KMS, the blob "includes metadata" naming its key, so Decrypt works without a KeyId for symmetric
 * keys (https://docs.aws.amazon.com/kms/latest/APIReference/API_Decrypt.html, request parameter KeyId).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT_VERSION = 0x01;
const KEY_ID_BYTES = 16;
const HEADER_BYTES = 1 + KEY_ID_BYTES;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** A blob of a one-byte plaintext (KMS's minimum plaintext). */
export const MIN_CIPHERTEXT_BYTES = HEADER_BYTES + NONCE_BYTES + 1 + TAG_BYTES;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type EncryptionContext = Record<string, string>;

/** Encrypts `plaintext` for the key `keyId` (a UUID) with its 32-byte `material`. */
export function sealBlob(keyId: string, material: Buffer, plaintext: Buffer, context: EncryptionContext): Buffer {
  const header = headerOf(keyId);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', material, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(header, context));
  const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([header, nonce, encrypted, cipher.getAuthTag()]);
}

/** The plaintext of a blob of this key, or undefined when it was altered or the context differs. */
export function openBlob(blob: Buffer, material: Buffer, context: EncryptionContext): Buffer | undefined {
  if (keyIdOfCiphertext(blob) === undefined) return undefined;
  const header = blob.subarray(0, HEADER_BYTES);
  const nonce = blob.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
  const tag = blob.subarray(blob.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', material, nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(header, context));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(blob.subarray(HEADER_BYTES + NONCE_BYTES, blob.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}

/**
 * The id (a UUID) of the KMS key a ciphertext blob of this emulator was made with, or undefined when the
 * bytes are not such a blob. Reads the header only: it does not prove the blob opens. For callers that
 * must know the key before Decrypt, as KMS does for authorisation (the IAM evaluator).
 */
export function keyIdOfCiphertext(blob: Uint8Array): string | undefined {
  if (blob.length < MIN_CIPHERTEXT_BYTES || blob[0] !== FORMAT_VERSION) return undefined;
  const hex = Buffer.from(blob.subarray(1, HEADER_BYTES)).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function headerOf(keyId: string): Buffer {
  if (!UUID.test(keyId)) throw new Error(`KMS key id ${keyId} is not a lower-case UUID`);
  return Buffer.concat([Buffer.from([FORMAT_VERSION]), Buffer.from(keyId.replace(/-/g, ''), 'hex')]);
}

function additionalData(header: Buffer, context: EncryptionContext): Buffer {
  const pairs = Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.concat([header, Buffer.from(JSON.stringify(pairs), 'utf8')]);
}
