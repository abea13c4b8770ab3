/**
 * ReEncrypt (TrentService.ReEncrypt, https://docs.aws.amazon.com/kms/latest/APIReference/API_ReEncrypt.html): Decrypt with the
 * source key and context, then Encrypt with the destination key and context.
 */
import { b64, dryRun, MAX_CIPHERTEXT_BYTES, openCiphertext, readAlgorithm, seal, unsupported, usableKey } from '../cryptography';
import { encryptionContext, grantTokens, optKeyId, reqBlob, reqKeyId } from '../input';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function reEncrypt(state: KmsState, body: JsonObject): JsonObject {
  const blob = reqBlob(body, 'CiphertextBlob', 1, MAX_CIPHERTEXT_BYTES);
  const sourceContext = encryptionContext(body, 'SourceEncryptionContext');
  const sourceKeyId = optKeyId(body, 'SourceKeyId');
  const destinationKeyId = reqKeyId(body, 'DestinationKeyId');
  const destinationContext = encryptionContext(body, 'DestinationEncryptionContext');
  const sourceAlgorithm = readAlgorithm(body, 'SourceEncryptionAlgorithm');
  const destinationAlgorithm = readAlgorithm(body, 'DestinationEncryptionAlgorithm');
  grantTokens(body);
  unsupported(body, ['DryRunModifiers']);
  const source = openCiphertext(state, blob, sourceKeyId, sourceContext, sourceAlgorithm);
  const destination = usableKey(state, destinationKeyId, destinationAlgorithm);
  dryRun(body);
  return {
    CiphertextBlob: b64(seal(destination, source.plaintext, destinationContext)),
    SourceKeyId: source.key.Arn,
    KeyId: destination.Arn,
    SourceEncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
    DestinationEncryptionAlgorithm: 'SYMMETRIC_DEFAULT',
  };
}
