/**
 * Aliases: CreateAlias, DeleteAlias, ListAliases.
 *
 * - https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateAlias.html: AliasName 1..256 characters
 *   matching `^[a-zA-Z0-9:/_-]+$` (ValidationException), beginning with `alias/` and not with the reserved
 *   `alias/aws/` (InvalidAliasNameException); TargetKeyId is a key id or key ARN of an existing key
 *   (NotFoundException); an existing name is AlreadyExistsException; "The alias must be unique in the
 *   account and Region". A disabled key can get an alias (the key states table,
 *   https://docs.aws.amazon.com/kms/latest/developerguide/key-state.html).
 * - Aliases per KMS key: a resource quota of 50
 *   (https://docs.aws.amazon.com/kms/latest/developerguide/resource-limits.html#aliases-per-key) ->
 *   LimitExceededException.
 * - https://docs.aws.amazon.com/kms/latest/APIReference/API_ListAliases.html: optional KeyId (key id or
 *   key ARN) filter; Limit "must be between 1 and 100, inclusive. If you do not include a value, it
 *   defaults to 50"; Marker/NextMarker/Truncated paging. Our markers are opaque (base64 of the last name);
 *   a marker we did not issue is InvalidMarkerException.
 */
import { constraint, KmsError } from './errors';
import { optInt, optKeyId, optString, reqKeyId, reqString } from './input';
import type { KeyResolver } from './key-ref';
import type { KmsStore } from './store';
import type { AliasRecord, JsonObject } from './types';

const ALIAS_PATTERN = /^[a-zA-Z0-9:/_-]+$/;
const MAX_ALIASES_PER_KEY = 50;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

export class AliasOperations {
  constructor(
    private readonly store: KmsStore,
    private readonly keys: KeyResolver,
    private readonly now: () => number = Date.now,
  ) {}

  createAlias(body: JsonObject): JsonObject {
    const name = readAliasName(body);
    const key = this.keys.resolve(reqKeyId(body, 'TargetKeyId'), { aliases: false });
    if (this.store.alias(name))
      throw new KmsError('AlreadyExistsException', `An alias with the name ${this.keys.aliasArn(name)} already exists`);
    if (this.store.allAliases().filter((a) => a.TargetKeyId === key.KeyId).length >= MAX_ALIASES_PER_KEY) {
      throw new KmsError(
        'LimitExceededException',
        `${key.Arn} already has ${MAX_ALIASES_PER_KEY} aliases, the quota of aliases per KMS key.`,
      );
    }
    const now = this.now();
    this.store.putAlias({ AliasName: name, TargetKeyId: key.KeyId, CreationDate: now, LastUpdatedDate: now });
    return {};
  }

  deleteAlias(body: JsonObject): JsonObject {
    const name = readAliasName(body);
    if (!this.store.deleteAlias(name)) throw new KmsError('NotFoundException', `Alias ${this.keys.aliasArn(name)} is not found.`);
    return {};
  }

  listAliases(body: JsonObject): JsonObject {
    const keyId = optKeyId(body);
    const limit = optInt(body, 'Limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
    const marker = optString(body, 'Marker', 1, 1024);
    const target = keyId === undefined ? undefined : this.keys.resolve(keyId, { aliases: false }).KeyId;
    const all = this.store.allAliases().filter((a) => target === undefined || a.TargetKeyId === target);
    let start = 0;
    if (marker !== undefined) {
      const after = Buffer.from(marker, 'base64url').toString('utf8');
      if (!after.startsWith('alias/') || Buffer.from(after, 'utf8').toString('base64url') !== marker) {
        throw new KmsError('InvalidMarkerException', 'Invalid marker.');
      }
      start = all.findIndex((a) => a.AliasName > after);
      if (start === -1) start = all.length;
    }
    const page = all.slice(start, start + limit);
    const truncated = start + limit < all.length;
    const out: JsonObject = { Aliases: page.map((a) => this.view(a)), Truncated: truncated };
    if (truncated) out.NextMarker = Buffer.from(page[page.length - 1]!.AliasName, 'utf8').toString('base64url');
    return out;
  }

  private view(alias: AliasRecord): JsonObject {
    return {
      AliasName: alias.AliasName,
      AliasArn: this.keys.aliasArn(alias.AliasName),
      TargetKeyId: alias.TargetKeyId,
      CreationDate: alias.CreationDate / 1000,
      LastUpdatedDate: alias.LastUpdatedDate / 1000,
    };
  }
}

function readAliasName(body: JsonObject): string {
  const name = reqString(body, 'AliasName', 1, 256);
  if (!ALIAS_PATTERN.test(name)) throw constraint('AliasName', name, 'Member must satisfy regular expression pattern: ^[a-zA-Z0-9:/_-]+$');
  if (!name.startsWith('alias/')) {
    throw new KmsError(
      'ValidationException',
      'Alias must start with the prefix "alias/". Please see https://docs.aws.amazon.com/kms/latest/developerguide/kms-alias.html',
    );
  }
  if (name === 'alias/' || name.startsWith('alias/aws/')) {
    throw new KmsError(
      'InvalidAliasNameException',
      `${name} is not a valid alias name: it needs a name after alias/, and alias/aws/ is reserved for AWS managed keys.`,
    );
  }
  return name;
}
