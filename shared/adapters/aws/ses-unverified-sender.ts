/**
 * SES's refusal of a send whose sender identity it does not count as verified: MessageRejected "Email
 * address is not verified. The following identities failed the check in region <REGION>: <identities>"
 * (https://docs.aws.amazon.com/ses/latest/dg/troubleshoot-error-messages.html). In the SES sandbox the same
 * words name unverified recipients; only a refusal naming nothing but the sender is the sender's.
 */
import { domainOf } from '../../domain/mail/address';

const NOT_VERIFIED = /Email address is not verified\. The following identities failed the check in region [^:]*:\s*(.+)$/is;

export function isUnverifiedSenderRefusal(error: unknown, fromAddress: string): boolean {
  if (!(error instanceof Error) || error.name !== 'MessageRejected') return false;
  const listed = NOT_VERIFIED.exec(error.message)?.[1];
  if (!listed) return false;
  const sender = new Set([fromAddress.toLowerCase(), domainOf(fromAddress).toLowerCase()]);
  const identities = listed
    .split(/[,\s]+/)
    .map((identity) => identity.trim().toLowerCase())
    .filter(Boolean);
  return identities.length > 0 && identities.every((identity) => sender.has(identity));
}
