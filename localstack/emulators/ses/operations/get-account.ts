/**
 * GetAccount (GET /v2/email/account): the account's quota, sandbox and sending switch
 * (../account-limits.ts) with its SuppressionAttributes (../suppression-list.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export function getAccount(state: SesState, _request: SesRequest): OperationResult {
  return { body: { ...state.account.getAccount().body, SuppressionAttributes: state.suppression.accountAttributes() } };
}
