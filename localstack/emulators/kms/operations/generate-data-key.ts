/**
 * GenerateDataKey (TrentService.GenerateDataKey, https://docs.aws.amazon.com/kms/latest/APIReference/API_GenerateDataKey.html):
 * a new data key of KeySpec (AES_256, AES_128) or NumberOfBytes (1..1024), in plaintext and sealed under the
 * KMS key (../cryptography.ts, newDataKey).
 */
import { newDataKey } from '../cryptography';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function generateDataKey(state: KmsState, body: JsonObject): JsonObject {
  return newDataKey(state, body, true);
}
