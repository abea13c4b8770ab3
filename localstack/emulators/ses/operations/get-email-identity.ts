/**
 * GetEmailIdentity (GET /v2/email/identities/{EmailIdentity}): its verification checked first
 * (../verification.ts), then its DKIM, MAIL FROM and feedback forwarding attributes.
 */
import { dkimAttributes, requireIdentity } from '../identities';
import type { SesRequest } from '../request';
import type { SesState } from '../state';
import type { OperationResult } from '../types';
import { verificationOf } from '../verification';

export async function getEmailIdentity(state: SesState, request: SesRequest): Promise<OperationResult> {
  const identity = await state.verifier.refresh(requireIdentity(state.store, request.params[0]!));
  const status = verificationOf(identity).status;
  return {
    body: {
      IdentityType: identity.type,
      // PutEmailIdentityFeedbackAttributes (feedback-forwarding.ts); on by default.
      FeedbackForwardingStatus: identity.feedbackForwarding ?? true,
      VerifiedForSendingStatus: status === 'SUCCESS',
      VerificationStatus: status,
      DkimAttributes: dkimAttributes(identity.dkim, status),
      ...(identity.mailFrom
        ? {
            MailFromAttributes: {
              MailFromDomain: identity.mailFrom.domain,
              MailFromDomainStatus: identity.mailFrom.status ?? 'PENDING',
              BehaviorOnMxFailure: identity.mailFrom.behaviorOnMxFailure,
            },
          }
        : {}),
      Policies: {},
      Tags: identity.tags,
      ...(identity.configurationSet ? { ConfigurationSetName: identity.configurationSet } : {}),
    },
  };
}
