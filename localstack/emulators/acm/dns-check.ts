/**
 * Whether DNS shows a validation record: ACM looks up the CNAME it gave
 * (https://docs.aws.amazon.com/acm/latest/userguide/dns-validation.html) and validates the name once it
 * answers the value. ACM checks periodically; the emulator checks when an operation looks at a pending
 * certificate, against `resolver` (the local cloud's DNS emulator, `host:port`), as the SES emulator's
 * identity verification does (../ses/verification.ts).
 */
import { Resolver } from 'node:dns/promises';
import type { ResourceRecord } from './validation-records';

const LOOKUP_TIMEOUT_MS = 1500;
const norm = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function recordIsPublished(record: ResourceRecord, resolverAddress: string | undefined): Promise<boolean> {
  const resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: 1 });
  if (resolverAddress) resolver.setServers([resolverAddress]);
  try {
    const targets = await resolver.resolveCname(norm(record.Name));
    return targets.some((target) => norm(target) === norm(record.Value));
  } catch {
    return false; // no record (NXDOMAIN, NODATA) or no answer: not yet
  }
}
