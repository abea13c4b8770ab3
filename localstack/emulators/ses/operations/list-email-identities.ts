/**
 * ListEmailIdentities, in both wire forms: POST /v2/email/list-identities {NextToken, PageSize} (current
 * SDK) and GET /v2/email/identities?NextToken&PageSize (older SDKs). Sorted by name, each shown
 * identity's verification checked first (../verification.ts).
 */
import { page } from '../paging';
import { bodyToken, optInt, type SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { verificationOf } from '../verification';

/** GET /v2/email/identities?NextToken&PageSize. */
export function listEmailIdentitiesByQuery(state: SesState, request: SesRequest): Promise<OperationResult> {
  return listEmailIdentities(state, request.query.get('NextToken') ?? undefined, optInt(request.query.get('PageSize')));
}

/** POST /v2/email/list-identities. */
export async function listEmailIdentitiesByBody(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  return listEmailIdentities(state, bodyToken(body), optInt(body.PageSize));
}

async function listEmailIdentities(state: SesState, nextToken: string | undefined, pageSize: number | undefined): Promise<OperationResult> {
  const { items, next } = page(state.store.listIdentities(), nextToken, pageSize);
  const shown = await Promise.all(items.map((i) => state.verifier.refresh(i)));
  return {
    body: {
      EmailIdentities: shown.map((i) => ({
        IdentityType: i.type,
        IdentityName: i.name,
        SendingEnabled: true,
        VerificationStatus: verificationOf(i).status,
      })),
      ...(next !== undefined ? { NextToken: next } : {}),
    },
  };
}
