/**
 * GET /message-streams/{id}/suppressions/dump: the stream's suppressions filtered by SuppressionReason,
 * Origin and EmailAddress (any case); not paginated; 422 `ErrorCode` 1226 for an unknown stream.
 */
import { paramIgnoringCase } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { streamNotFound } from '../errors';
import type { PostmarkSeed } from '../seed';

export function dumpSuppressions(request: EmulatedRequest, data: PostmarkSeed, [id]: string[]): Reply {
  if (!data.message_streams.some((s) => s.ID === id)) return streamNotFound();
  const reason = paramIgnoringCase(request.query, 'SuppressionReason');
  const origin = paramIgnoringCase(request.query, 'Origin');
  const email = paramIgnoringCase(request.query, 'EmailAddress')?.toLowerCase();
  const rows = (data.suppressions[id ?? ''] ?? []).filter(
    (s) =>
      (!reason || s.SuppressionReason === reason) && (!origin || s.Origin === origin) && (!email || s.EmailAddress.toLowerCase() === email),
  );
  return json(200, { Suppressions: rows });
}
