/**
 * PutEmailIdentityFeedbackAttributes (PUT /v2/email/identities/{EmailIdentity}/feedback {EmailForwardingEnabled};
 * https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutEmailIdentityFeedbackAttributes.html):
 * email feedback forwarding on or off (../feedback-forwarding.ts says when the mail goes out anyway);
 * EmailForwardingEnabled absent counts as false (the SDK's boolean default).
 */
import { requireIdentity } from '../identities';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { optBoolean } from '../validate';

export async function putEmailIdentityFeedbackAttributes(state: SesState, request: SesRequest): Promise<OperationResult> {
  const body = await request.json();
  const identity = requireIdentity(state.store, request.params[0]!);
  const enabled = optBoolean(body.EmailForwardingEnabled, 'EmailForwardingEnabled') ?? false;
  state.store.putIdentity({ ...identity, feedbackForwarding: enabled, updatedAt: new Date().toISOString() });
  return { body: {} };
}
