/**
 * CreateKey (TrentService.CreateKey, https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateKey.html): a symmetric
 * encryption key with new 256-bit key material, enabled, with the given key policy or the default one
 * (../key-policy.ts); any other kind of key is UnsupportedOperationException (../keys.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { keyMetadata, readNewKey } from '../keys';
import type { KmsState } from '../state';
import type { JsonObject, KeyRecord } from '../types';

export function createKey(state: KmsState, body: JsonObject): JsonObject {
  const { policy, description, tags } = readNewKey(body, state.keys.accountId);
  const keyId = randomUUID();
  const key: KeyRecord = {
    KeyId: keyId,
    Arn: state.keys.keyArn(keyId),
    CreationDate: state.now(),
    Description: description,
    Enabled: true,
    KeyUsage: 'ENCRYPT_DECRYPT',
    KeySpec: 'SYMMETRIC_DEFAULT',
    Policy: policy,
    Tags: tags,
    RotationEnabled: false,
    Material: randomBytes(32).toString('base64'),
  };
  state.store.putKey(key);
  return { KeyMetadata: keyMetadata(key, state.keys.accountId) };
}
