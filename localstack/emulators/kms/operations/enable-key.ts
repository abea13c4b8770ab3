/** EnableKey (TrentService.EnableKey, https://docs.aws.amazon.com/kms/latest/APIReference/API_EnableKey.html): the key (key id or key ARN) is Enabled. */
import { managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function enableKey(state: KmsState, body: JsonObject): JsonObject {
  managedKey(state, body).Enabled = true;
  return {};
}
