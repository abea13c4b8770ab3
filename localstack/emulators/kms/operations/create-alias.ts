/**
 * CreateAlias (TrentService.CreateAlias, https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateAlias.html):
 * AliasName as ../aliases.ts checks it; TargetKeyId is a key id or key ARN of an existing key
 * (NotFoundException); an existing name is AlreadyExistsException; "The alias must be unique in the
 * account and Region". A disabled key can get an alias (the key states table,
 * https://docs.aws.amazon.com/kms/latest/developerguide/key-state.html).
 * Aliases per KMS key: a resource quota of 50
 * (https://docs.aws.amazon.com/kms/latest/developerguide/resource-limits.html#aliases-per-key) ->
 * LimitExceededException.
 */
import { readAliasName } from '../aliases';
import { KmsError } from '../errors';
import { reqKeyId } from '../input';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

const MAX_ALIASES_PER_KEY = 50;

export function createAlias(state: KmsState, body: JsonObject): JsonObject {
  const name = readAliasName(body);
  const key = state.keys.resolve(reqKeyId(body, 'TargetKeyId'), { aliases: false });
  if (state.store.alias(name))
    throw new KmsError('AlreadyExistsException', `An alias with the name ${state.keys.aliasArn(name)} already exists`);
  if (state.store.allAliases().filter((a) => a.TargetKeyId === key.KeyId).length >= MAX_ALIASES_PER_KEY) {
    throw new KmsError(
      'LimitExceededException',
      `${key.Arn} already has ${MAX_ALIASES_PER_KEY} aliases, the quota of aliases per KMS key.`,
    );
  }
  const now = state.now();
  state.store.putAlias({ AliasName: name, TargetKeyId: key.KeyId, CreationDate: now, LastUpdatedDate: now });
  return {};
}
