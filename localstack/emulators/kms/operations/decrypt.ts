/**
 * Decrypt (TrentService.Decrypt, https://docs.aws.amazon.com/kms/latest/APIReference/API_Decrypt.html): the KeyId is optional
 * (the blob names its key); a different named key is IncorrectKeyException, an altered blob or another
 * encryption context InvalidCiphertextException (../cryptography.ts, openCiphertext).
 */
import { b64, dryRun, MAX_CIPHERTEXT_BYTES, openCiphertext, readAlgorithm, unsupported } from '../cryptography';
import { encryptionContext, grantTokens, optKeyId, reqBlob } from '../input';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function decrypt(state: KmsState, body: JsonObject): JsonObject {
  const blob = reqBlob(body, 'CiphertextBlob', 1, MAX_CIPHERTEXT_BYTES);
  const context = encryptionContext(body, 'EncryptionContext');
  const named = optKeyId(body);
  const algorithm = readAlgorithm(body, 'EncryptionAlgorithm');
  grantTokens(body);
  unsupported(body, ['Recipient', 'DryRunModifiers']);
  const { key, plaintext } = openCiphertext(state, blob, named, context, algorithm);
  dryRun(body);
  return { KeyId: key.Arn, Plaintext: b64(plaintext), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
}
