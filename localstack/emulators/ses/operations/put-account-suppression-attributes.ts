/**
 * PutAccountSuppressionAttributes (PUT /v2/email/account/suppression {SuppressedReasons}): the reasons
 * the account-level list applies to; SuppressedReasons absent or [] turns it off (../suppression-list.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import { parseReasons } from '../suppression-list';
import type { OperationResult } from '../types';

export async function putAccountSuppressionAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const reasons =
    body.SuppressedReasons === undefined || body.SuppressedReasons === null
      ? []
      : parseReasons(body.SuppressedReasons, 'SuppressedReasons');
  state.store.putSuppression({ ...state.suppression.settings(), accountReasons: reasons });
  return { body: {} };
}
