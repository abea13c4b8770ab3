/**
 * What the key management operations share (CreateKey, DescribeKey, EnableKey, DisableKey, GetKeyPolicy,
 * PutKeyPolicy, EnableKeyRotation, DisableKeyRotation, GetKeyRotationStatus: ./operations/create-key.ts
 * and the others). Each follows its page of the KMS API reference,
 * https://docs.aws.amazon.com/kms/latest/APIReference/API_<Operation>.html.
 *
 * Only symmetric encryption keys (KeySpec SYMMETRIC_DEFAULT, KeyUsage ENCRYPT_DECRYPT, Origin AWS_KMS,
 * single-Region) are created: another spec, usage, origin, a custom key store or MultiRegion is refused
 * with UnsupportedOperationException (our choice; AWS creates them). Rotation is bookkeeping only: the
 * status and the next rotation date are reported, key material is never replaced (KMS keeps old material
 * to decrypt old ciphertexts anyway, so ciphertexts behave the same).
 * Key states: Enabled and Disabled only (no deletion, no import). A disabled key refuses cryptographic
 * operations and EnableKeyRotation with DisabledException, as those operations' Errors sections say.
 */
import { KmsError, wrongType, constraint } from './errors';
import { optBool, optEnum, optString, reqKeyId, reqString } from './input';
import { defaultKeyPolicy, readKeyPolicy } from './key-policy';
import type { KmsState } from './state';
import type { JsonObject, KeyRecord, Tag } from './types';
import { isObject } from './types';

/** "If no value is specified, the default value is 365 days." (API_EnableKeyRotation.html, RotationPeriodInDays) */
export const DEFAULT_ROTATION_DAYS = 365;

const KEY_USAGES = ['SIGN_VERIFY', 'ENCRYPT_DECRYPT', 'GENERATE_VERIFY_MAC', 'KEY_AGREEMENT'] as const;
const KEY_SPECS = [
  'RSA_2048',
  'RSA_3072',
  'RSA_4096',
  'ECC_NIST_P256',
  'ECC_NIST_P384',
  'ECC_NIST_P521',
  'ECC_SECG_P256K1',
  'SYMMETRIC_DEFAULT',
  'HMAC_224',
  'HMAC_256',
  'HMAC_384',
  'HMAC_512',
  'SM2',
  'ML_DSA_44',
  'ML_DSA_65',
  'ML_DSA_87',
  'ECC_NIST_EDWARDS25519',
] as const;
const ORIGINS = ['AWS_KMS', 'EXTERNAL', 'AWS_CLOUDHSM', 'EXTERNAL_KEY_STORE'] as const;

/** KeyMetadata as DescribeKey and CreateKey return it (timestamps in epoch seconds). */
export function keyMetadata(key: KeyRecord, accountId: string): JsonObject {
  return {
    AWSAccountId: accountId,
    KeyId: key.KeyId,
    Arn: key.Arn,
    CreationDate: key.CreationDate / 1000,
    Enabled: key.Enabled,
    Description: key.Description,
    KeyUsage: key.KeyUsage,
    KeyState: key.Enabled ? 'Enabled' : 'Disabled',
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: key.KeySpec,
    KeySpec: key.KeySpec,
    EncryptionAlgorithms: ['SYMMETRIC_DEFAULT'],
    MultiRegion: false,
  };
}

/** CreateKey's request, read and checked: the key's policy (the default one when none), description and tags; only symmetric keys. */
export function readNewKey(body: JsonObject, accountId: string): { policy: string; description: string; tags: Tag[] } {
  const policy = body.Policy === undefined || body.Policy === null ? defaultKeyPolicy(accountId) : readKeyPolicy(body);
  const description = optString(body, 'Description', 0, 8192) ?? '';
  const usage = optEnum(body, 'KeyUsage', KEY_USAGES) ?? 'ENCRYPT_DECRYPT';
  const spec = optEnum(body, 'KeySpec', KEY_SPECS) ?? optEnum(body, 'CustomerMasterKeySpec', KEY_SPECS) ?? 'SYMMETRIC_DEFAULT';
  const origin = optEnum(body, 'Origin', ORIGINS) ?? 'AWS_KMS';
  optBool(body, 'BypassPolicyLockoutSafetyCheck');
  const tags = readTags(body);
  if (usage !== 'ENCRYPT_DECRYPT' || spec !== 'SYMMETRIC_DEFAULT' || origin !== 'AWS_KMS') {
    throw new KmsError(
      'UnsupportedOperationException',
      `The local KMS emulator creates only SYMMETRIC_DEFAULT ENCRYPT_DECRYPT keys of origin AWS_KMS (asked: ${spec} ${usage} ${origin}).`,
    );
  }
  if (body.CustomKeyStoreId != null || body.XksKeyId != null || optBool(body, 'MultiRegion') === true) {
    throw new KmsError('UnsupportedOperationException', 'The local KMS emulator has no custom key stores and no multi-Region keys.');
  }
  return { policy, description, tags };
}

/** The key of a management operation: "Specify the key ID or key ARN" (no aliases). */
export function managedKey(state: KmsState, body: JsonObject): KeyRecord {
  return state.keys.resolve(reqKeyId(body), { aliases: false });
}

/** Tags: TagList of {TagKey (1..128), TagValue (0..256)} (API_Tag.html). Kept, not used. */
function readTags(body: JsonObject): Tag[] {
  const v = body.Tags;
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw wrongType('Tags', 'a list of tags');
  return v.map((tag: unknown, i) => {
    if (!isObject(tag)) throw wrongType(`Tags.${i + 1}`, 'a tag');
    const TagKey = reqString(tag, 'TagKey', 1, 128);
    const value = tag.TagValue;
    if (typeof value !== 'string') throw wrongType(`Tags.${i + 1}.TagValue`, 'a string');
    if (value.length > 256) throw constraint(`tags.${i + 1}.member.tagValue`, value, 'Member must have length less than or equal to 256');
    return { TagKey, TagValue: value };
  });
}
