/** GET /v4/domains: limit 1..1000 (default 100) + skip; total_count. */
import { intParam } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { message } from '../errors';
import type { MailgunSeed } from '../seed';

export function listDomains(request: EmulatedRequest, data: MailgunSeed): Reply {
  const limit = intParam(request.query, 'limit', 100, 1, 1000);
  const skip = intParam(request.query, 'skip', 0, 0, Number.MAX_SAFE_INTEGER);
  if (limit === null || skip === null) return message(400, 'limit must be 1-1000 and skip a non-negative integer');
  return json(200, { total_count: data.domains.length, items: data.domains.slice(skip, skip + limit).map((x) => x.domain) });
}
