/** SES-style paging of the emulator's lists (ListTenants, ListSuppressedDestinations, ...). */
import { badRequest } from './errors';
import { optString } from './validate';

/** Pages a sorted list with SES-style NextToken (an opaque offset) and PageSize (1-1000, default 1000). */
export function page<T>(all: T[], nextToken: unknown, pageSize: unknown, max = 1000): { items: T[]; next?: string } {
  let start = 0;
  const token = optString(nextToken, 'NextToken');
  if (token) {
    const decoded = Number(Buffer.from(token, 'base64').toString('utf8'));
    if (!Number.isInteger(decoded) || decoded < 0 || decoded > all.length) throw badRequest('NextToken is invalid.');
    start = decoded;
  }
  let size = max;
  if (pageSize !== undefined && pageSize !== null) {
    if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > max)
      throw badRequest(`PageSize must be an integer from 1 to ${max}.`);
    size = pageSize;
  }
  const end = Math.min(all.length, start + size);
  return { items: all.slice(start, end), ...(end < all.length ? { next: Buffer.from(String(end)).toString('base64') } : {}) };
}
