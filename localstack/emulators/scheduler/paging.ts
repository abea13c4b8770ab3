/**
 * List pagination. Items are listed in a stable sorted order; NextToken is an opaque token naming
 * the last key of the previous page, so pages stay consistent while items are added or removed.
 */
import { validation } from './errors';

/** The page size of ListSchedules and ListScheduleGroups when MaxResults is absent. */
export const DEFAULT_PAGE_SIZE = 100;

function encode(afterKey: string): string {
  return Buffer.from(JSON.stringify({ after: afterKey }), 'utf8').toString('base64url');
}

function decode(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { after?: unknown }).after === 'string') {
      return (parsed as { after: string }).after;
    }
  } catch {
    // fall through
  }
  throw validation('Invalid NextToken.');
}

export interface Page<T> {
  items: T[];
  nextToken?: string;
}

/** One page of `sorted` (ascending by `keyOf`) after `nextToken`, at most `maxResults` long. */
export function paginate<T>(sorted: T[], keyOf: (item: T) => string, maxResults: number, nextToken: string | null): Page<T> {
  let start = 0;
  if (nextToken !== null && nextToken !== '') {
    const after = decode(nextToken);
    start = sorted.findIndex((item) => keyOf(item) > after);
    if (start < 0) start = sorted.length;
  }
  const items = sorted.slice(start, start + maxResults);
  const last = items[items.length - 1];
  const more = start + maxResults < sorted.length;
  return more && last !== undefined ? { items, nextToken: encode(keyOf(last)) } : { items };
}
