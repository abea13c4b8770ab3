/**
 * Key management: CreateKey, DescribeKey, EnableKey, DisableKey, GetKeyPolicy, PutKeyPolicy,
 * EnableKeyRotation, DisableKeyRotation, GetKeyRotationStatus. Each follows its page of the KMS API
 * reference, https://docs.aws.amazon.com/kms/latest/APIReference/API_<Operation>.html.
 *
 * Only symmetric encryption keys (KeySpec SYMMETRIC_DEFAULT, KeyUsage ENCRYPT_DECRYPT, Origin AWS_KMS,
 * single-Region) are created: another spec, usage, origin, a custom key store or MultiRegion is refused
 * with UnsupportedOperationException (our choice; AWS creates them). Rotation is bookkeeping only: the
 * status and the next rotation date are reported, key material is never replaced (KMS keeps old material
 * to decrypt old ciphertexts anyway, so ciphertexts behave the same).
 * Key states: Enabled and Disabled only (no deletion, no import). A disabled key refuses cryptographic
 * operations and EnableKeyRotation with DisabledException, as those operations' Errors sections say.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { KmsError, wrongType, constraint } from './errors';
import { optBool, optEnum, optInt, optString, reqKeyId, reqString } from './input';
import { defaultKeyPolicy, readKeyPolicy, readPolicyName } from './key-policy';
import type { KeyResolver } from './key-ref';
import type { KmsStore } from './store';
import type { JsonObject, KeyRecord, Tag } from './types';
import { isObject } from './types';

const DAY_MS = 24 * 60 * 60 * 1000;
/** "If no value is specified, the default value is 365 days." (API_EnableKeyRotation.html, RotationPeriodInDays) */
const DEFAULT_ROTATION_DAYS = 365;

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

export class KeyOperations {
  constructor(
    private readonly store: KmsStore,
    private readonly keys: KeyResolver,
    private readonly now: () => number = Date.now,
  ) {}

  createKey(body: JsonObject): JsonObject {
    const policy = body.Policy === undefined || body.Policy === null ? defaultKeyPolicy(this.keys.accountId) : readKeyPolicy(body);
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
    const keyId = randomUUID();
    const key: KeyRecord = {
      KeyId: keyId,
      Arn: this.keys.keyArn(keyId),
      CreationDate: this.now(),
      Description: description,
      Enabled: true,
      KeyUsage: 'ENCRYPT_DECRYPT',
      KeySpec: 'SYMMETRIC_DEFAULT',
      Policy: policy,
      Tags: tags,
      RotationEnabled: false,
      Material: randomBytes(32).toString('base64'),
    };
    this.store.putKey(key);
    return { KeyMetadata: keyMetadata(key, this.keys.accountId) };
  }

  describeKey(body: JsonObject): JsonObject {
    const key = this.keys.resolve(reqKeyId(body), { aliases: true });
    return { KeyMetadata: keyMetadata(key, this.keys.accountId) };
  }

  enableKey(body: JsonObject): JsonObject {
    this.manage(body).Enabled = true;
    return {};
  }

  disableKey(body: JsonObject): JsonObject {
    this.manage(body).Enabled = false;
    return {};
  }

  getKeyPolicy(body: JsonObject): JsonObject {
    const key = this.manage(body);
    readPolicyName(body);
    return { Policy: key.Policy, PolicyName: 'default' };
  }

  putKeyPolicy(body: JsonObject): JsonObject {
    const key = this.manage(body);
    readPolicyName(body);
    optBool(body, 'BypassPolicyLockoutSafetyCheck');
    key.Policy = readKeyPolicy(body);
    return {};
  }

  enableKeyRotation(body: JsonObject): JsonObject {
    const key = this.manage(body);
    const period = optInt(body, 'RotationPeriodInDays', 90, 2560) ?? DEFAULT_ROTATION_DAYS;
    if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
    key.RotationEnabled = true;
    key.RotationPeriodInDays = period;
    key.RotationEnabledAt = this.now();
    return {};
  }

  disableKeyRotation(body: JsonObject): JsonObject {
    const key = this.manage(body);
    if (!key.Enabled) throw new KmsError('DisabledException', `${key.Arn} is disabled.`);
    key.RotationEnabled = false;
    delete key.RotationPeriodInDays;
    delete key.RotationEnabledAt;
    return {};
  }

  getKeyRotationStatus(body: JsonObject): JsonObject {
    const key = this.manage(body);
    if (!key.RotationEnabled) return { KeyRotationEnabled: false, KeyId: key.Arn };
    const period = key.RotationPeriodInDays ?? DEFAULT_ROTATION_DAYS;
    return {
      KeyRotationEnabled: true,
      KeyId: key.Arn,
      RotationPeriodInDays: period,
      NextRotationDate: ((key.RotationEnabledAt ?? key.CreationDate) + period * DAY_MS) / 1000,
    };
  }

  /** The key of a management operation: "Specify the key ID or key ARN" (no aliases). */
  private manage(body: JsonObject): KeyRecord {
    return this.keys.resolve(reqKeyId(body), { aliases: false });
  }
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
