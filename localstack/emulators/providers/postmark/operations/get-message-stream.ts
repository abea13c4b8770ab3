/** GET /message-streams/{id}: one message stream; 422 `ErrorCode` 1226 when unknown. */
import { json, type Reply } from '../../types';
import { streamNotFound } from '../errors';
import type { PostmarkSeed } from '../seed';

export function getMessageStream(_request: unknown, data: PostmarkSeed, [id]: string[]): Reply {
  const stream = data.message_streams.find((s) => s.ID === id);
  return stream ? json(200, stream) : streamNotFound();
}
