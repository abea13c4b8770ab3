/** Postmark's Count + Offset paging (the templates, the domains). */
import { paramIgnoringCase } from '../query-params';
import type { EmulatedRequest, Reply } from '../types';
import { apiError } from './errors';

/** Count and Offset are required (any case); Count at most 500. */
export function paging(request: EmulatedRequest): { count: number; offset: number } | Reply {
  const count = paramIgnoringCase(request.query, 'Count');
  const offset = paramIgnoringCase(request.query, 'Offset');
  if (count === null || offset === null || !/^\d+$/.test(count) || !/^\d+$/.test(offset)) {
    return apiError(422, 0, "The 'Count' and 'Offset' query parameters are required and must be whole numbers.");
  }
  if (Number(count) < 1 || Number(count) > 500) return apiError(422, 0, "The 'Count' query parameter must be between 1 and 500.");
  return { count: Number(count), offset: Number(offset) };
}
