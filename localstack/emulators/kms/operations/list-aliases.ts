/**
 * ListAliases (TrentService.ListAliases, https://docs.aws.amazon.com/kms/latest/APIReference/API_ListAliases.html): optional
 * KeyId (key id or key ARN) filter; Limit "must be between 1 and 100, inclusive. If you do not include a
 * value, it defaults to 50"; Marker/NextMarker/Truncated paging. Our markers are opaque (base64 of the last
 * name); a marker we did not issue is InvalidMarkerException.
 */
import { aliasView } from '../aliases';
import { KmsError } from '../errors';
import { optInt, optKeyId, optString } from '../input';
import type { KmsState } from '../state';
import type { JsonObject } from '../types';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

export function listAliases(state: KmsState, body: JsonObject): JsonObject {
  const keyId = optKeyId(body);
  const limit = optInt(body, 'Limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const marker = optString(body, 'Marker', 1, 1024);
  const target = keyId === undefined ? undefined : state.keys.resolve(keyId, { aliases: false }).KeyId;
  const all = state.store.allAliases().filter((a) => target === undefined || a.TargetKeyId === target);
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
  const out: JsonObject = { Aliases: page.map((a) => aliasView(state, a)), Truncated: truncated };
  if (truncated) out.NextMarker = Buffer.from(page[page.length - 1]!.AliasName, 'utf8').toString('base64url');
  return out;
}
