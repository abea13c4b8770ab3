/** GET /webhooks: the webhooks, of one MessageStream when given (422 `ErrorCode` 1226 for an unknown stream). */
import { paramIgnoringCase } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { streamNotFound } from '../errors';
import type { PostmarkSeed } from '../seed';

export function listWebhooks(request: EmulatedRequest, data: PostmarkSeed): Reply {
  const stream = paramIgnoringCase(request.query, 'MessageStream');
  if (stream && !data.message_streams.some((s) => s.ID === stream)) return streamNotFound();
  return json(200, { Webhooks: data.webhooks.filter((w) => !stream || w.MessageStream === stream) });
}
