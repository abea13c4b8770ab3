/**
 * Encrypt (TrentService.Encrypt, https://docs.aws.amazon.com/kms/latest/APIReference/API_Encrypt.html): Plaintext 1..4096 bytes
 * (ValidationException); KeyId as key id, key ARN, alias name or alias ARN; unknown -> NotFoundException;
 * "DisabledException: The request was rejected because the specified KMS key is not enabled." The
 * ciphertext binds the encryption context (../ciphertext.ts).
 */
import { b64, dryRun, readAlgorithm, seal, usableKey } from '../cryptography';
import { encryptionContext, grantTokens, reqBlob, reqKeyId } from '../input';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

/** PlaintextType: "Minimum length of 1. Maximum length of 4096." */
const MAX_PLAINTEXT_BYTES = 4096;

export function encrypt(state: KmsState, body: JsonObject): JsonObject {
  const keyId = reqKeyId(body);
  const plaintext = reqBlob(body, 'Plaintext', 1, MAX_PLAINTEXT_BYTES);
  const context = encryptionContext(body, 'EncryptionContext');
  const algorithm = readAlgorithm(body, 'EncryptionAlgorithm');
  grantTokens(body);
  const key = usableKey(state, keyId, algorithm);
  dryRun(body);
  return { CiphertextBlob: b64(seal(key, plaintext, context)), KeyId: key.Arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
}
