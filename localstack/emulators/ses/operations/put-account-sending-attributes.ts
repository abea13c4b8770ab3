/**
 * PutAccountSendingAttributes (PUT /v2/email/account/sending): SendingEnabled pauses or resumes the whole
 * account (absent: unchanged); a paused account's SendEmail is SendingPausedException (../account-limits.ts):
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutAccountSendingAttributes.html
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { optBoolean } from '../validate';

export async function putAccountSendingAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const enabled = optBoolean(body.SendingEnabled, 'SendingEnabled');
  if (enabled !== undefined) state.account.sendingEnabled = enabled;
  return { body: {} };
}
