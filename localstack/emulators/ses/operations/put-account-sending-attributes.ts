/**
 * PutAccountSendingAttributes (PUT /v2/email/account/sending): SendingEnabled pauses or resumes the whole
 * account (../account-limits.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putAccountSendingAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.account.putSendingAttributes(await request.json());
}
