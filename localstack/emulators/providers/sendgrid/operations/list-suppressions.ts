/**
 * GET /v3/suppression/{bounces|blocks|spam_reports|invalid_emails|unsubscribes}: a bare array paged by
 * limit 1..500 + offset with a Link header, no total (../paging.ts); bounces need an Accept header, else 406.
 */
import type { EmulatedRequest, Reply } from '../../types';
import { errors } from '../errors';
import { offsetPage } from '../paging';
import type { SendgridSeed } from '../seed';

type SuppressionList = 'bounces' | 'blocks' | 'spam_reports' | 'invalid_emails' | 'unsubscribes';

export function listSuppressions(request: EmulatedRequest, data: SendgridSeed, [list]: string[]): Reply {
  const name = list as SuppressionList;
  if (name === 'bounces' && !request.headers.accept) return errors(406, 'Missing Accept header');
  return offsetPage(request, data[name] ?? [], 500, 500);
}
