/** A domain identity the SES emulator counts as verified (its DKIM CNAMEs in the given DNS emulator); throws otherwise. */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { ensureVerifiedDomainIdentity } from '#localstack/cloud/services/ses-verified-identity';
import type { DnsEmulator } from '#localstack/emulators/dns';

export async function verifiedDomainIdentity(client: SESv2Client, dns: Pick<DnsEmulator, 'setRecords'>, domain: string): Promise<void> {
  if (!(await ensureVerifiedDomainIdentity(client, dns, domain))) throw new Error(`the SES emulator did not verify ${domain}`);
}
