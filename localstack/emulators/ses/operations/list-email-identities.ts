/**
 * ListEmailIdentities, in both wire forms: GET /v2/email/identities?NextToken&PageSize and
 * POST /v2/email/list-identities {NextToken, PageSize} (../identities.ts).
 */
import { bodyToken, optInt, type SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

/** GET /v2/email/identities?NextToken&PageSize. */
export function listEmailIdentitiesByQuery(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.identities.listEmailIdentities(request.query.get('NextToken') ?? undefined, optInt(request.query.get('PageSize')));
}

/** POST /v2/email/list-identities. */
export async function listEmailIdentitiesByBody(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  return state.identities.listEmailIdentities(bodyToken(body), optInt(body.PageSize));
}
