/**
 * DMARC health (RFC 7489): one `v=DMARC1` record at `_dmarc.<domain>` with a policy; `p=none` only
 * monitors (recommend quarantine or reject once reports show only your own sources pass); `rua` asks
 * receivers for aggregate reports; `aspf=s` (strict SPF alignment) never aligns for the service's mail,
 * whose return path is `rp.<domain>` (DKIM, `d=<domain>`, still aligns). The suggested `rua=` is the
 * domain's DMARC report address when it has one (../dmarc-reports.ts: the service reads the reports),
 * else dmarc@ the domain. Pure.
 */
import type { Lookup } from '../evaluate';
import { reportAuthorizationRecord } from '../dmarc-reports';
import { dmarcValue } from '../records';
import { dnsError, finding, parseTagList, recordsStartingWith, type HealthFinding } from './finding';

const POLICIES = new Set(['none', 'quarantine', 'reject']);

/** The tags written back as a record (v first, then the order found), with `changes` applied. */
function rewrite(tags: Map<string, string>, changes: Record<string, string>): string {
  const next = new Map(tags);
  for (const [tag, value] of Object.entries(changes)) next.set(tag, value);
  return [...next].map(([tag, value]) => `${tag}=${value}`).join('; ');
}

interface DmarcRecord {
  domain: string;
  /** `_dmarc.<domain>`. */
  name: string;
  tags: Map<string, string>;
  reportAddress: string | null;
}

/** p=none: only monitors. */
function policyNone({ domain, name, tags }: DmarcRecord): HealthFinding {
  return finding(
    'dmarc_policy_none',
    `The DMARC policy of ${domain} is p=none: mail that fails authentication (a spoofer's) is still delivered. Once the aggregate reports show only your own sources passing, move to quarantine, then reject.`,
    {
      type: 'TXT',
      name,
      value: rewrite(tags, { p: 'quarantine' }),
    },
  );
}

/** No rua=: no aggregate reports; the domain's report address suggested when it has one. */
function noReporting({ domain, name, tags, reportAddress }: DmarcRecord): HealthFinding {
  const authorization = reportAddress ? reportAuthorizationRecord(domain, reportAddress) : null;
  const reading = reportAddress
    ? ` Add rua=mailto:${reportAddress}: the service reads the reports sent there (GET /domains/{id}/dmarc).${authorization ? ` Also publish ${authorization.name} TXT "${authorization.value}" (RFC 7489 section 7.1), or receivers will not send reports to an address outside ${domain}.` : ''}`
    : ' Turn on dmarc_reports (PATCH /domains/{id}) to have the service read them.';
  return finding(
    'dmarc_no_reporting',
    `The DMARC record at ${name} has no rua=: no receiver sends you aggregate reports, so you cannot see who sends as ${domain} nor whether it passes.${reading}`,
    { type: 'TXT', name, value: rewrite(tags, { rua: `mailto:${reportAddress ?? `dmarc@${domain}`}` }) },
  );
}

/** aspf=s: the service's SPF pass (return path rp.<domain>) never aligns. */
function strictSpfAlignment({ domain, name, tags }: DmarcRecord): HealthFinding {
  return finding(
    'dmarc_spf_alignment_strict',
    `The DMARC record at ${name} asks for strict SPF alignment (aspf=s): the service's mail has the return path rp.${domain}, so its SPF pass never aligns and DMARC rests on DKIM alone. Relaxed alignment (aspf=r, the default) lets both count.`,
    {
      type: 'TXT',
      name,
      value: rewrite(tags, { aspf: 'r' }),
    },
  );
}

export function evaluateDmarcHealth(input: { domain: string; lookup: Lookup; reportAddress?: string | null }): HealthFinding[] {
  const name = `_dmarc.${input.domain}`;
  const reportAddress = input.reportAddress ?? null;
  const { lookup } = input;
  if (lookup.kind === 'error') return [dnsError('dmarc', name, lookup)];
  const records = recordsStartingWith(lookup, /^v\s*=\s*DMARC1\s*(;|$)/i);
  if (records.length === 0) {
    return [
      finding(
        'dmarc_missing',
        `${input.domain} publishes no DMARC record: Gmail and Yahoo require one of bulk senders, and without it nothing tells receivers what to do with mail that fails authentication. Publish it (p=none first, to read the reports).`,
        {
          type: 'TXT',
          name,
          value: dmarcValue(input.domain, reportAddress),
        },
      ),
    ];
  }
  if (records.length > 1)
    return [
      finding(
        'dmarc_multiple',
        `${name} has ${records.length} DMARC records; receivers then apply none of them (RFC 7489 section 6.6.3). Keep exactly one.`,
      ),
    ];
  const tags = parseTagList(records[0]!);
  const policy = tags?.get('p')?.toLowerCase();
  if (!tags || !policy || !POLICIES.has(policy)) {
    return [
      finding(
        'dmarc_invalid',
        `The DMARC record at ${name} ${tags ? 'has no valid p= (none, quarantine or reject)' : 'is not a tag=value list'}: receivers ignore it. Publish a valid one.`,
        { type: 'TXT', name, value: dmarcValue(input.domain, reportAddress) },
      ),
    ];
  }
  const record: DmarcRecord = { domain: input.domain, name, tags, reportAddress };
  return [
    ...(policy === 'none' ? [policyNone(record)] : []),
    ...(tags.get('rua') ? [] : [noReporting(record)]),
    ...(tags.get('aspf')?.toLowerCase() === 's' ? [strictSpfAlignment(record)] : []),
  ];
}
