/** DisableKey (TrentService.DisableKey, https://docs.aws.amazon.com/kms/latest/APIReference/API_DisableKey.html): the key (key id or key ARN) is Disabled. */
import { managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function disableKey(state: KmsState, body: JsonObject): JsonObject {
  managedKey(state, body).Enabled = false;
  return {};
}
