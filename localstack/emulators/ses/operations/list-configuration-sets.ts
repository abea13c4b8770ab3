/**
 * ListConfigurationSets, in both wire forms: GET /v2/email/configuration-sets?NextToken&PageSize and
 * POST /v2/email/list-configuration-sets {NextToken, PageSize}. Names in order, PageSize 1 to 1000
 * (default 1000), NextToken the base64 of the next index.
 */
import { page } from '../paging';
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
  const { items, next } = page(
    state.store.listConfigSets().map((cs) => cs.name),
    nextToken,
    pageSize,
  );
  return { body: { ConfigurationSets: items, ...(next !== undefined ? { NextToken: next } : {}) } };
}
