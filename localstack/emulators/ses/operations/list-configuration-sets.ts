/**
 * ListConfigurationSets, in both wire forms: GET /v2/email/configuration-sets?NextToken&PageSize and
 * POST /v2/email/list-configuration-sets {NextToken, PageSize}. Names in order, PageSize 1 to 1000
 * (default 1000), NextToken the base64 of the next index.
 */
import { badRequest } from '../errors';
import { bodyToken, optInt, type SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

/** GET /v2/email/configuration-sets?NextToken&PageSize. */
export function listConfigurationSetsByQuery(state: SesState, request: SesRequest): OperationResult {
  return listConfigurationSets(state, request.query.get('NextToken') ?? undefined, optInt(request.query.get('PageSize')));
}

/** POST /v2/email/list-configuration-sets. */
export async function listConfigurationSetsByBody(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  return listConfigurationSets(state, bodyToken(body), optInt(body.PageSize));
}

function listConfigurationSets(state: SesState, nextToken: string | undefined, pageSize: number | undefined): OperationResult {
  const names = state.store.listConfigSets().map((cs) => cs.name);
  let start = 0;
  if (nextToken) {
    const decoded = Number(Buffer.from(nextToken, 'base64').toString('utf8'));
    if (!Number.isInteger(decoded) || decoded < 0 || decoded > names.length) throw badRequest('NextToken is invalid.');
    start = decoded;
  }
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)) {
    throw badRequest('PageSize must be an integer from 1 to 1000.');
  }
  const end = Math.min(names.length, start + (pageSize ?? 1000));
  return {
    body: {
      ConfigurationSets: names.slice(start, end),
      ...(end < names.length ? { NextToken: Buffer.from(String(end)).toString('base64') } : {}),
    },
  };
}
