/** DescribeKey (TrentService.DescribeKey, https://docs.aws.amazon.com/kms/latest/APIReference/API_DescribeKey.html): the KeyMetadata of a key named by key id, key ARN, alias name or alias ARN. */
import { reqKeyId } from '../input';
import { keyMetadata } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function describeKey(state: KmsState, body: JsonObject): JsonObject {
  const key = state.keys.resolve(reqKeyId(body), { aliases: true });
  return { KeyMetadata: keyMetadata(key, state.keys.accountId) };
}
