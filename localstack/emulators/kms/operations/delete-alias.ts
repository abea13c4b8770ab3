/** DeleteAlias (TrentService.DeleteAlias, https://docs.aws.amazon.com/kms/latest/APIReference/API_DeleteAlias.html): an alias that is not there is NotFoundException. */
import { readAliasName } from '../aliases';
import { KmsError } from '../errors';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

export function deleteAlias(state: KmsState, body: JsonObject): JsonObject {
  const name = readAliasName(body);
  if (!state.store.deleteAlias(name)) throw new KmsError('NotFoundException', `Alias ${state.keys.aliasArn(name)} is not found.`);
  return {};
}
