/**
 * PutEmailIdentityFeedbackAttributes (PUT /v2/email/identities/{EmailIdentity}/feedback): email feedback
 * forwarding on or off (../feedback-forwarding.ts).
 */
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';

export async function putEmailIdentityFeedbackAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  return state.feedback.putFeedbackAttributes(request.params[0]!, await request.json());
}
