/**
 * Whether DNS shows a validation record: ACM looks up the CNAME it gave
 * (https://docs.aws.amazon.com/acm/latest/userguide/dns-validation.html) and validates the name once it
 * answers the value. ACM checks periodically; the emulator checks when an operation looks at a pending
 * certificate, at the servers `dns` names (the local cloud: DNS_RESOLVERS when set, as the functions read DNS,
 * else its DNS emulator; ../../cloud/emulator-dns-servers.ts), as the SES emulator's identity verification
 * does (../ses/verification.ts).
 */
import { resolverFor, type DnsServers } from '../dns-servers';
import type { ResourceRecord } from './validation-records';

const LOOKUP_TIMEOUT_MS = 1500;
const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function recordIsPublished(record: ResourceRecord, dns: DnsServers | undefined): Promise<boolean> {
  const resolver = resolverFor(dns, norm(record.Name), LOOKUP_TIMEOUT_MS);
  try {
    const targets = await resolver.resolveCname(norm(record.Name));
    return targets.some((target) => norm(target) === norm(record.Value));
  } catch {
    return false; // no record (NXDOMAIN, NODATA) or no answer: not yet
  }
}
