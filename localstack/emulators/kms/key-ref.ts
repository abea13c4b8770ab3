/**
 * The four ways KMS lets a caller name a key, "its key ID, key ARN, alias name, or alias ARN. When using an
 * alias name, prefix it with "alias/"" (https://docs.aws.amazon.com/kms/latest/APIReference/API_Encrypt.html,
 * request parameter KeyId; the same words on Decrypt, DescribeKey, GenerateDataKey, ReEncrypt), and the
 * resolution of a name to this emulator's key record. Operations that manage a key (GetKeyPolicy,
 * PutKeyPolicy, EnableKeyRotation, CreateAlias's TargetKeyId, ListAliases...) accept only "the key ID or
 * key ARN" (their API reference pages), so they resolve with `aliases: false`.
 *
 * Not-found messages are KMS's own wording as it answers (`Key '<arn>' does not exist`, `Alias <arn> is not
 * found.`, `Invalid keyId <value>`); the error is NotFoundException in every case, as the API reference
 * lists for each of these operations. An ARN of another account or Region names a key that is not here:
 * NotFoundException too (the emulator is one account in one Region).
 */
import { KmsError } from './errors';
import type { KmsStore } from './store';
import type { KeyRecord } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ARN = /^arn:aws[a-z-]*:kms:([a-z0-9-]*):(\d*):(key|alias)\/(.+)$/;

export type KeyRef =
  | { kind: 'key'; keyId: string }
  | { kind: 'alias'; aliasName: string }
  /** A well-formed ARN of another account or Region. */
  | { kind: 'elsewhere' }
  | { kind: 'invalid' };

export class KeyResolver {
  constructor(
    private readonly store: KmsStore,
    readonly region: string,
    readonly accountId: string,
  ) {}

  keyArn(keyId: string): string {
    return `arn:aws:kms:${this.region}:${this.accountId}:key/${keyId}`;
  }

  aliasArn(aliasName: string): string {
    return `arn:aws:kms:${this.region}:${this.accountId}:${aliasName}`;
  }

  parse(value: string): KeyRef {
    if (UUID.test(value)) return { kind: 'key', keyId: value };
    if (value.startsWith('alias/')) return { kind: 'alias', aliasName: value };
    const arn = ARN.exec(value);
    if (!arn) return { kind: 'invalid' };
    const [, region, account, type, rest] = arn as unknown as [string, string, string, 'key' | 'alias', string];
    if (region !== this.region || account !== this.accountId) return { kind: 'elsewhere' };
    if (type === 'alias') return { kind: 'alias', aliasName: `alias/${rest}` };
    return UUID.test(rest) ? { kind: 'key', keyId: rest } : { kind: 'invalid' };
  }

  /** The key `value` names; throws NotFoundException as KMS does when it names none. */
  resolve(value: string, options: { aliases: boolean }): KeyRecord {
    const ref = this.parse(value);
    if (ref.kind === 'alias' && options.aliases) {
      const alias = this.store.alias(ref.aliasName);
      const key = alias && this.store.key(alias.TargetKeyId);
      if (!key) throw new KmsError('NotFoundException', `Alias ${this.aliasArn(ref.aliasName)} is not found.`);
      return key;
    }
    if (ref.kind === 'key') {
      const key = this.store.key(ref.keyId);
      if (!key) throw new KmsError('NotFoundException', `Key '${this.keyArn(ref.keyId)}' does not exist`);
      return key;
    }
    if (ref.kind === 'elsewhere') throw new KmsError('NotFoundException', `Key '${value}' does not exist`);
    throw new KmsError('NotFoundException', `Invalid keyId ${value}`);
  }

  /** The key ARN `value` names (key id, key ARN, alias name or alias ARN), or undefined. */
  tryKeyArn(value: string): string | undefined {
    try {
      return this.resolve(value, { aliases: true }).Arn;
    } catch (err) {
      if (err instanceof KmsError) return undefined;
      throw err;
    }
  }
}
