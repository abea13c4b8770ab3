/**
 * A domain identity of the local SES that SES counts as verified: created with Easy DKIM and its three
 * DKIM CNAMEs (`<token>._domainkey.<domain>` -> `<token>.dkim.amazonses.com`) published in the DNS
 * emulator the SES emulator checks against (docs/local-cloud/ses.md, "Identity verification"). What an
 * operator does on AWS for the sandbox sender domain (docs/deploy.md). Idempotent: an existing identity
 * gets its records published again.
 */
import { CreateEmailIdentityCommand, GetEmailIdentityCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import type { DnsEmulator } from '../../emulators/dns';

/** Whether SES now counts the domain as verified for sending. */
export async function ensureVerifiedDomainIdentity(
  ses: SESv2Client,
  dns: Pick<DnsEmulator, 'setRecords'>,
  domain: string,
): Promise<boolean> {
  try {
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
  } catch (error) {
    if ((error as Error).name !== 'AlreadyExistsException') throw error;
  }
  const created = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
  if (created.VerifiedForSendingStatus) return true;
  for (const token of created.DkimAttributes?.Tokens ?? []) {
    dns.setRecords({ name: `${token}._domainkey.${domain}`, type: 'CNAME', values: [`${token}.dkim.amazonses.com`] });
  }
  return (await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain }))).VerifiedForSendingStatus === true;
}
