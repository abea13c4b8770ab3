/**
 * The operation map's KMS entries (../operations.ts assembles the table).
 *
 * KMS: https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html (kms:EncryptionContext:<k>,
 * kms:EncryptionContextKeys, kms:EncryptionAlgorithm, kms:RequestAlias, kms:CallerAccount). Decrypt is
 * authorized on the key the ciphertext names (read with the local KMS emulator's format), else on KeyId.
 */
import { keyIdOfCiphertext } from '../../emulators/kms/ciphertext';
import { UnsupportedRequestError } from '../errors';
import { kmsKey, required, type Input, type OperationEnv } from '../operation-arns';
import type { Mapper, MappedRequest } from './mapper';

function kmsRequest(action: string, env: OperationEnv, keyId: string, input: Input): MappedRequest {
  const { keyArn, alias } = kmsKey(env, keyId);
  const pairs = Object.entries((input.EncryptionContext ?? {}) as Record<string, string>);
  const context: Record<string, string | string[]> = {
    'kms:CallerAccount': env.accountId,
    'kms:EncryptionAlgorithm': typeof input.EncryptionAlgorithm === 'string' ? input.EncryptionAlgorithm : 'SYMMETRIC_DEFAULT',
    ...Object.fromEntries(pairs.map(([key, value]) => [`kms:EncryptionContext:${key}`, value])),
  };
  if (pairs.length > 0) context['kms:EncryptionContextKeys'] = pairs.map(([key]) => key);
  if (alias) context['kms:RequestAlias'] = alias;
  return {
    action: `kms:${action}`,
    resource: keyArn,
    context,
    // Any other encryption-context key is known absent; so are the keys of calls made through another service.
    absentKeys: ['kms:EncryptionContext:*', 'kms:EncryptionContextKeys', 'kms:RequestAlias', 'kms:ViaService'],
    policyHolder: keyArn,
    policyKind: 'kms-key',
  };
}

const kmsWithKeyId =
  (action: string): Mapper =>
  (input, env) => [kmsRequest(action, env, required(input, 'KeyId', `kms:${action}`), input)];

const kmsDecrypt: Mapper = (input, env) => {
  const blob = input.CiphertextBlob as Uint8Array | undefined;
  const keyOfBlob = blob ? (env.kmsKeyIdOfCiphertext ?? keyIdOfCiphertext)(blob) : undefined;
  const keyId = keyOfBlob ?? (typeof input.KeyId === 'string' ? input.KeyId : undefined);
  if (!keyId) throw new UnsupportedRequestError('kms:Decrypt: the ciphertext names no key the local cloud can read and KeyId is absent');
  return [kmsRequest('Decrypt', env, keyId, input)];
};

export const KMS_OPERATIONS: Readonly<Record<string, Mapper>> = {
  'KMS.Encrypt': kmsWithKeyId('Encrypt'),
  'KMS.GenerateDataKey': kmsWithKeyId('GenerateDataKey'),
  'KMS.Decrypt': kmsDecrypt,
};
