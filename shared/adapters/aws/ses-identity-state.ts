/**
 * What SES says about a domain identity (GetEmailIdentity), read for the product: whether SES can send
 * from it yet, and whether our BYODKIM key is the one it holds. SES verifies a domain later than it is
 * created, once it has seen the DKIM record at `<selector>._domainkey.<domain>`
 * (https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-dkim-bring-your-own.html); it
 * gives up after 72 hours (FAILED) until the signing attributes are set again.
 */
import type { GetEmailIdentityCommandOutput } from '@aws-sdk/client-sesv2';
import type { ProviderDomainState } from '../../domain/domains/provider-verification';

type Identity = Pick<GetEmailIdentityCommandOutput, 'VerifiedForSendingStatus' | 'VerificationStatus' | 'DkimAttributes'>;

export function providerDomainState(identity: Identity): ProviderDomainState {
  const dkim = identity.DkimAttributes?.Status ?? 'NOT_STARTED';
  if (identity.VerifiedForSendingStatus) return { status: 'verified', detail: 'SES can send from the domain (VerifiedForSendingStatus).' };
  if (identity.VerificationStatus === 'FAILED' || dkim === 'FAILED') {
    return {
      status: 'failed',
      detail: `SES did not find the DKIM record in time (verification ${identity.VerificationStatus ?? 'FAILED'}, DKIM ${dkim}).`,
    };
  }
  return {
    status: 'pending',
    detail: `SES has not yet confirmed the DKIM record (verification ${identity.VerificationStatus ?? 'PENDING'}, DKIM ${dkim}); it checks DNS periodically.`,
  };
}

/**
 * Whether SES holds our key under this selector with a verification that still runs or succeeded: then
 * setting it again (PutEmailIdentityDkimSigningAttributes) would only restart the verification. A key is
 * never reused under another selector (shared/lib/dkim/keys.ts newSelector), so the selector names the key.
 */
export function holdsOurKey(identity: Identity, selector: string): boolean {
  const dkim = identity.DkimAttributes;
  return (
    dkim?.SigningAttributesOrigin === 'EXTERNAL' && dkim.Tokens?.length === 1 && dkim.Tokens[0] === selector && dkim.Status !== 'FAILED'
  );
}
