/** GET /message-streams: filtered by MessageStreamType (default All) and IncludeArchivedStreams (default false); TotalCount. */
import { paramIgnoringCase } from '../../query-params';
import { json, type EmulatedRequest, type Reply } from '../../types';
import { apiError } from '../errors';
import type { PostmarkSeed } from '../seed';

const STREAM_TYPES = ['All', 'Inbound', 'Transactional', 'Broadcasts'];

export function listMessageStreams(request: EmulatedRequest, data: PostmarkSeed): Reply {
  const type = paramIgnoringCase(request.query, 'MessageStreamType') ?? 'All';
  if (!STREAM_TYPES.includes(type)) return apiError(422, 1225, `The 'MessageStreamType' value '${type}' is not valid.`);
  const archived = (paramIgnoringCase(request.query, 'IncludeArchivedStreams') ?? 'false').toLowerCase() === 'true';
  const streams = data.message_streams.filter(
    (s) => (type === 'All' || s.MessageStreamType === type) && (archived || s.ArchivedAt === null),
  );
  return json(200, { MessageStreams: streams, TotalCount: streams.length });
}
