/**
 * What the cryptographic operations share (Encrypt, Decrypt, GenerateDataKey,
 * GenerateDataKeyWithoutPlaintext, ReEncrypt: ./operations/encrypt.ts and the others): real AES-256-GCM
 * (ciphertext.ts) and the checks and errors of their KMS API reference pages:
 *
 * - https://docs.aws.amazon.com/kms/latest/APIReference/API_Decrypt.html: KeyId optional for symmetric
 *   keys ("KMS can get the KMS key from metadata that it adds to the symmetric ciphertext blob"); "If you
 *   identify a different KMS key, the Decrypt operation throws an IncorrectKeyException"; a ciphertext
 *   that is altered, or whose encryption context differs ("you must specify the same (an exact
 *   case-sensitive match) encryption context to decrypt the data", API_Encrypt.html, EncryptionContext),
 *   is InvalidCiphertextException.
 * - https://docs.aws.amazon.com/kms/latest/APIReference/API_GenerateDataKey.html: "You must specify either
 *   the KeySpec or the NumberOfBytes parameter (but not both)"; NumberOfBytes 1..1024; KeySpec AES_256 or
 *   AES_128.
 * - An EncryptionAlgorithm other than SYMMETRIC_DEFAULT on a symmetric key: InvalidKeyUsageException ("The
 *   encryption algorithm ... is incompatible with the type of key material in the KMS key").
 * - DryRun: after every check, DryRunOperationException ("The request would have succeeded").
 *   DryRunModifiers and Recipient (Nitro Enclaves) are not supported: UnsupportedOperationException (ours).
 *
 * Our choice where KMS documents nothing: a blob that is not of this emulator's format, or names a key
 * that does not exist here, is InvalidCiphertextException (the key cannot be told from a forged header).
 */
import { randomBytes } from 'node:crypto';
import { keyIdOfCiphertext, openBlob, sealBlob, type EncryptionContext } from './ciphertext';
import { KmsError } from './errors';
import { encryptionContext, grantTokens, optBool, optEnum, optInt, reqKeyId } from './input';
import type { KmsState } from './state';
import type { JsonObject, KeyRecord } from './types';

const ALGORITHMS = ['SYMMETRIC_DEFAULT', 'RSAES_OAEP_SHA_1', 'RSAES_OAEP_SHA_256', 'SM2PKE'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];
/** CiphertextType: "Minimum length of 1. Maximum length of 6144." */
export const MAX_CIPHERTEXT_BYTES = 6144;

export const b64 = (bytes: Buffer): string => bytes.toString('base64');

/**
 * The key to encrypt with: it exists, is enabled ("DisabledException: The request was rejected because the
 * specified KMS key is not enabled.", API_Encrypt.html), and the algorithm suits it.
 */
export function usableKey(state: KmsState, keyId: string, algorithm: Algorithm): KeyRecord {
  const key = state.keys.resolve(keyId, { aliases: true });
  if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
  if (algorithm !== 'SYMMETRIC_DEFAULT') {
    throw new KmsError(
      'InvalidKeyUsageException',
      `Encryption algorithm ${algorithm} is not supported by ${key.Arn}, a SYMMETRIC_DEFAULT key.`,
    );
  }
  return key;
}

/** Decrypt's checks, in KMS's order: the named key, the blob's key, its state, then the ciphertext itself. */
export function openCiphertext(
  state: KmsState,
  blob: Buffer,
  named: string | undefined,
  context: EncryptionContext,
  algorithm: Algorithm,
): { key: KeyRecord; plaintext: Buffer } {
  const namedKey = named === undefined ? undefined : state.keys.resolve(named, { aliases: true });
  const blobKeyId = keyIdOfCiphertext(blob);
  if (namedKey && blobKeyId !== undefined && namedKey.KeyId !== blobKeyId) {
    throw new KmsError('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
  }
  const key = blobKeyId === undefined ? undefined : state.store.key(blobKeyId);
  if (!key) throw invalidCiphertext();
  if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
  if (algorithm !== 'SYMMETRIC_DEFAULT') {
    throw new KmsError(
      'InvalidKeyUsageException',
      `Encryption algorithm ${algorithm} is not supported by ${key.Arn}, a SYMMETRIC_DEFAULT key.`,
    );
  }
  const plaintext = openBlob(blob, Buffer.from(key.Material, 'base64'), context);
  if (!plaintext) throw invalidCiphertext();
  return { key, plaintext };
}

/** GenerateDataKey and GenerateDataKeyWithoutPlaintext: a new data key sealed under the KMS key, and in plaintext when `withPlaintext`. */
export function newDataKey(state: KmsState, body: JsonObject, withPlaintext: boolean): JsonObject {
  const keyId = reqKeyId(body);
  const context = encryptionContext(body, 'EncryptionContext');
  const bytes = optInt(body, 'NumberOfBytes', 1, 1024);
  const spec = optEnum(body, 'KeySpec', ['AES_256', 'AES_128'] as const);
  grantTokens(body);
  unsupported(body, ['Recipient']);
  if ((bytes === undefined) === (spec === undefined)) {
    throw new KmsError('ValidationException', 'Please specify either number of bytes or key spec.');
  }
  const key = usableKey(state, keyId, 'SYMMETRIC_DEFAULT');
  dryRun(body);
  const dataKey = randomBytes(bytes ?? (spec === 'AES_128' ? 16 : 32));
  const out: JsonObject = { CiphertextBlob: b64(seal(key, dataKey, context)), KeyId: key.Arn };
  if (withPlaintext) out.Plaintext = b64(dataKey);
  return out;
}

function invalidCiphertext(): KmsError {
  return new KmsError(
    'InvalidCiphertextException',
    'The ciphertext does not decrypt: it is altered, not a ciphertext of this KMS, or its encryption context differs.',
  );
}

export function seal(key: KeyRecord, plaintext: Buffer, context: EncryptionContext): Buffer {
  return sealBlob(key.KeyId, Buffer.from(key.Material, 'base64'), plaintext, context);
}

export function readAlgorithm(body: JsonObject, member: string): Algorithm {
  return optEnum(body, member, ALGORITHMS) ?? 'SYMMETRIC_DEFAULT';
}

export function dryRun(body: JsonObject): void {
  if (optBool(body, 'DryRun') === true) {
    throw new KmsError('DryRunOperationException', 'The request would have succeeded, but the DryRun option is set.');
  }
}

export function unsupported(body: JsonObject, members: string[]): void {
  for (const member of members) {
    if (body[member] !== undefined && body[member] !== null) {
      throw new KmsError('UnsupportedOperationException', `${member} is not supported by the local KMS emulator.`);
    }
  }
}
