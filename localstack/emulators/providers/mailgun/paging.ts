/** Mailgun's cursor paging (the suppression lists, the templates). */
import { intParam } from '../query-params';
import { json, type EmulatedRequest, type Reply } from '../types';
import { message } from './errors';

/**
 * Rows ordered by `keyOf`, page=first|next|previous|last around the pivot parameter, `paging` URLs
 * absolute (base + path). An empty page still links a `next`.
 */
export function pivotPage<T>(
  request: EmulatedRequest,
  rows: readonly T[],
  keyOf: (row: T) => string,
  pivotName: string,
  maxLimit: number,
): Reply {
  const limit = intParam(request.query, 'limit', Math.min(100, maxLimit), 1, maxLimit);
  if (limit === null) return message(400, `limit must be between 1 and ${maxLimit}`);
  const sorted = [...rows].sort((a, b) => compare(keyOf(a), keyOf(b)));
  const pivot = request.query.get(pivotName) ?? '';
  const page = request.query.get('page') ?? '';
  let items: T[];
  if (page === 'next' && pivot) items = sorted.filter((row) => compare(keyOf(row), pivot) > 0).slice(0, limit);
  else if ((page === 'previous' || page === 'prev') && pivot) items = sorted.filter((row) => compare(keyOf(row), pivot) < 0).slice(-limit);
  else if (page === 'last') items = sorted.slice(-limit);
  else items = sorted.slice(0, limit);
  const first = items[0];
  const last = items[items.length - 1];
  const url = (query: string) => `${request.base}${request.path}?${query}`;
  const around = (which: string, key: string) => url(`page=${which}&${pivotName}=${encodeURIComponent(key)}&limit=${limit}`);
  return json(200, {
    items,
    paging: {
      first: url(`limit=${limit}`),
      last: url(`page=last&limit=${limit}`),
      next: around('next', last ? keyOf(last) : pivot),
      previous: around('previous', first ? keyOf(first) : pivot),
    },
  });
}

function compare(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
