/** GetKeyPolicy (TrentService.GetKeyPolicy, https://docs.aws.amazon.com/kms/latest/APIReference/API_GetKeyPolicy.html): the key policy exactly as stored; its name is always `default`. */
import { readPolicyName } from '../key-policy';
import { managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function getKeyPolicy(state: KmsState, body: JsonObject): JsonObject {
  const key = managedKey(state, body);
  readPolicyName(body);
  return { Policy: key.Policy, PolicyName: 'default' };
}
