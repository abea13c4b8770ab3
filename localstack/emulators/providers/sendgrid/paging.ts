/** SendGrid's offset paging (the suppression lists, the authenticated domains). */
import { intParam } from '../query-params';
import { json, type EmulatedRequest, type Reply } from '../types';
import { errors } from './errors';

/** A bare-array page by limit/offset with SendGrid's Link header (first, prev, next, last). */
export function offsetPage(request: EmulatedRequest, items: readonly unknown[], defaultLimit: number, maxLimit: number): Reply {
  const limit = intParam(request.query, 'limit', defaultLimit, 1, maxLimit);
  if (limit === null) return errors(400, `limit must be an integer between 1 and ${maxLimit}`, 'limit');
  const offset = intParam(request.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (offset === null) return errors(400, 'offset must be a non-negative integer', 'offset');
  const link = (o: number, rel: string) =>
    `<${request.base}${request.path}?limit=${limit}&offset=${o}>; rel="${rel}"; title="${Math.floor(o / limit) + 1}"`;
  const last = items.length === 0 ? 0 : Math.floor((items.length - 1) / limit) * limit;
  const links = [
    ...(offset + limit < items.length ? [link(offset + limit, 'next')] : []),
    ...(offset > 0 ? [link(Math.max(0, offset - limit), 'prev')] : []),
    link(last, 'last'),
    link(0, 'first'),
  ];
  return json(200, items.slice(offset, offset + limit), { Link: links.join(', ') });
}
