/** PutKeyPolicy (TrentService.PutKeyPolicy, https://docs.aws.amazon.com/kms/latest/APIReference/API_PutKeyPolicy.html): replaces the key policy, checked as ../key-policy.ts says. */
import { optBool } from '../input';
import { readKeyPolicy, readPolicyName } from '../key-policy';
import { managedKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function putKeyPolicy(state: KmsState, body: JsonObject): JsonObject {
  const key = managedKey(state, body);
  readPolicyName(body);
  optBool(body, 'BypassPolicyLockoutSafetyCheck');
  key.Policy = readKeyPolicy(body);
  return {};
}
