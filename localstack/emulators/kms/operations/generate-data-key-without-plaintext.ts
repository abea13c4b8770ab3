/**
 * GenerateDataKeyWithoutPlaintext (TrentService.GenerateDataKeyWithoutPlaintext,
 * https://docs.aws.amazon.com/kms/latest/APIReference/API_GenerateDataKeyWithoutPlaintext.html): GenerateDataKey's
 * data key, sealed only (../cryptography.ts, newDataKey).
 */
import { newDataKey } from '../cryptography';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function generateDataKeyWithoutPlaintext(state: KmsState, body: JsonObject): JsonObject {
  return newDataKey(state, body, false);
}
