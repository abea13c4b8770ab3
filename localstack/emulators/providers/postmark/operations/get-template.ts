/** GET /templates/{idOrAlias}: one template by its id (digits) or its alias; 422 `ErrorCode` 1101 when unknown. */
import { json, type Reply } from '../../types';
import { apiError } from '../errors';
import type { PostmarkSeed } from '../seed';

export function getTemplate(_request: unknown, data: PostmarkSeed, [idOrAlias]: string[]): Reply {
  const t = /^\d+$/.test(idOrAlias ?? '')
    ? data.templates.find((x) => String(x.TemplateId) === idOrAlias)
    : data.templates.find((x) => x.Alias === idOrAlias);
  return t ? json(200, t) : apiError(422, 1101, "The 'TemplateId' associated with this request is not valid or was not found.");
}
