/**
 * What the alias operations share (CreateAlias, DeleteAlias, ListAliases: ./operations/create-alias.ts,
 * ./operations/delete-alias.ts, ./operations/list-aliases.ts): the alias name a request gives, and an alias
 * as ListAliases lists it.
 *
 * - https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateAlias.html: AliasName 1..256 characters
 *   matching `^[a-zA-Z0-9:/_-]+$` (ValidationException), beginning with `alias/` and not with the reserved
 *   `alias/aws/` (InvalidAliasNameException).
 */
import { constraint, KmsError } from './errors';
import { reqString } from './input';
import type { KmsState } from './state';
import type { AliasRecord, JsonObject } from './types';

const ALIAS_PATTERN = /^[a-zA-Z0-9:/_-]+$/;

export function aliasView(state: KmsState, alias: AliasRecord): JsonObject {
  return {
    AliasName: alias.AliasName,
    AliasArn: state.keys.aliasArn(alias.AliasName),
    TargetKeyId: alias.TargetKeyId,
    CreationDate: alias.CreationDate / 1000,
    LastUpdatedDate: alias.LastUpdatedDate / 1000,
  };
}

export function readAliasName(body: JsonObject): string {
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
