/**
 * MTA-STS (RFC 8461): `_mta-sts.<domain>` TXT `v=STSv1; id=...` announces a policy that makes senders
 * deliver to the domain's MX over verified TLS only. The policy file itself
 * (https://mta-sts.<domain>/.well-known/mta-sts.txt) is the domain owner's to host; the service does not
 * host it yet. Low impact: it protects mail the domain receives, not what it sends. Pure.
 */
import type { Lookup } from '../evaluate';
import { dnsError, finding, parseTagList, recordsStartingWith, type HealthFinding } from './finding';

/** An MTA-STS id: 1 to 32 letters and digits (RFC 8461 section 3.1); the check's time serves. */
export const mtaStsId = (checkedAt: string) => checkedAt.replace(/\D/g, '').slice(0, 14);

export function evaluateMtaStsHealth(input: { domain: string; checkedAt: string; lookup: Lookup }): HealthFinding[] {
  const name = `_mta-sts.${input.domain}`;
  const { lookup } = input;
  const record = { type: 'TXT' as const, name, value: `v=STSv1; id=${mtaStsId(input.checkedAt)}` };
  if (lookup.kind === 'error') return [dnsError('mta_sts', name, lookup)];
  const records = recordsStartingWith(lookup, /^v=STSv1\s*(;|$)/);
  if (records.length === 0) {
    return [
      finding(
        'mta_sts_missing',
        `${input.domain} publishes no MTA-STS record: senders may deliver to its MX without TLS, or to an impostor. Host the policy at https://mta-sts.${input.domain}/.well-known/mta-sts.txt, then publish this record (change the id whenever the policy changes).`,
        record,
      ),
    ];
  }
  const tags = records.length === 1 ? parseTagList(records[0]!) : null;
  if (!tags || !/^[A-Za-z0-9]{1,32}$/.test(tags.get('id') ?? '')) {
    return [
      finding(
        'mta_sts_invalid',
        `${name} must hold exactly one record "v=STSv1; id=<1-32 letters or digits>"; senders ignore what is there.`,
        record,
      ),
    ];
  }
  return [];
}
