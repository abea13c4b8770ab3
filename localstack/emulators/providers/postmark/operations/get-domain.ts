/** GET /domains/{id} (account token): one domain's details; 422 `ErrorCode` 510 when unknown. */
import { json, type Reply } from '../../types';
import { apiError } from '../errors';
import type { PostmarkSeed } from '../seed';

export function getDomain(_request: unknown, data: PostmarkSeed, [id]: string[]): Reply {
  const domain = data.domains.find((x) => String(x.ID) === id);
  return domain ? json(200, domain) : apiError(422, 510, 'This domain was not found.');
}
