/**
 * ListSuppressedDestinations (GET /v2/email/suppression/addresses?Reason&StartDate&EndDate&NextToken&PageSize&TenantName):
 * the account's list, or the tenant's when one is named, sorted by address; an invalid NextToken is
 * InvalidNextTokenException (../suppression-list.ts).
 */
import { SesError, badRequest } from '../errors';
import { page } from '../paging';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { SUPPRESSION_REASONS } from '../suppression-file';
import { MAX_PAGE_SIZE, parseDate } from '../suppression-list';
import { epochSeconds } from '../tenants';
import type { OperationResult } from '../types';

export function listSuppressedDestinations(state: SesState, request: SesRequest): OperationResult {
  const { query } = request;
  const tenant = state.suppression.optTenant(query.get('TenantName'));
  const reasons = query.getAll('Reason');
  for (const r of reasons)
    if (!(SUPPRESSION_REASONS as readonly string[]).includes(r)) throw badRequest(`Reason '${r}' is invalid: use BOUNCE or COMPLAINT.`);
  const start = parseDate(query.get('StartDate'), 'StartDate');
  const end = parseDate(query.get('EndDate'), 'EndDate');
  const matching = state.suppression
    .entries(tenant)
    .filter((e) => reasons.length === 0 || reasons.includes(e.reason))
    .filter(
      (e) => (start === undefined || Date.parse(e.lastUpdateTime) >= start) && (end === undefined || Date.parse(e.lastUpdateTime) <= end),
    )
    .sort((a, b) => a.address.toLowerCase().localeCompare(b.address.toLowerCase()));
  const rawSize = query.get('PageSize');
  const pageSize = rawSize === null || rawSize === '' ? undefined : Number(rawSize);
  const token = query.get('NextToken') || undefined;
  if (token !== undefined) {
    const offset = Number(Buffer.from(token, 'base64').toString('utf8'));
    if (!Number.isInteger(offset) || offset < 0 || offset > matching.length)
      throw new SesError('InvalidNextTokenException', 'The NextToken is invalid.');
  }
  const { items, next } = page(matching, token, pageSize, MAX_PAGE_SIZE);
  return {
    body: {
      SuppressedDestinationSummaries: items.map((e) => ({
        EmailAddress: e.address,
        Reason: e.reason,
        LastUpdateTime: epochSeconds(e.lastUpdateTime),
      })),
      ...(next ? { NextToken: next } : {}),
    },
  };
}
