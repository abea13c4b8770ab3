/**
 * A domain's dns_plan in an import report (spec, Imports): for each DNS record we need, what to do given
 * what is published now, and which records of the provider being left to keep for now. Pure: the use
 * case resolves every host once (dnsQueries lists them) and passes the answers as `published`.
 *
 * The rows of our own records, and what each action means, are ../domains/record-plan.ts; this adds the
 * rows of the provider's records to keep for now, and when to remove them.
 *
 * When any lookup failed (kind `error`), nothing can be compared: `checked` is false and every record of
 * ours is an `add` (spec), with no keep rows; `keep_old_records` is given all the same.
 */
import type { DnsRecord } from '../domains/domain';
import type { Lookup } from '../domains/evaluate';
import {
  hostOf,
  INCLUDE,
  joined,
  ourInclude,
  planRecords,
  sameTxt,
  SPF,
  txtKind,
  valuesOf,
  type DnsChange,
  type DnsRecordType,
  type PublishedDns,
} from '../domains/record-plan';
import { PROVIDER_LABELS, type ProviderName, type SourceDnsRecord } from './source';

export interface DnsPlan {
  checked: boolean;
  changes: DnsChange[];
  /** When to remove the provider's records (and what never to remove), for people. */
  keep_old_records: string;
}

export interface DnsPlanInput {
  /** The domain name. */
  domain: string;
  /** Our records for it (the domain's `records`, as expectedRecords makes them). */
  required: readonly DnsRecord[];
  /** The answers for every query of dnsQueries (anything else may answer none). */
  published: PublishedDns;
  /** What the provider asked the owner to publish for this domain. */
  providerRecords: readonly SourceDnsRecord[];
  provider: ProviderName;
}

/** The (host, type) pairs a plan reads: ours and the provider's, each once. */
export function dnsQueries(
  required: readonly Pick<DnsRecord, 'name' | 'type'>[],
  providerRecords: readonly SourceDnsRecord[],
): { host: string; type: DnsRecordType }[] {
  const queries = new Map<string, { host: string; type: DnsRecordType }>();
  for (const record of [...required.map((r) => ({ host: r.name, type: r.type })), ...providerRecords]) {
    const host = hostOf(record.host);
    queries.set(`${record.type} ${host}`, { host, type: record.type });
  }
  return [...queries.values()];
}

function providerRecordKind(record: SourceDnsRecord): string {
  if (record.type === 'MX') return 'inbound MX record';
  if (record.host.includes('._domainkey.')) return 'DKIM key';
  if (record.type === 'TXT') return txtKind(record.value) === 'spf' ? 'SPF record' : 'TXT record';
  return 'CNAME (return path, tracking or link branding)';
}

function keepProvider(record: SourceDnsRecord, host: string, published: readonly string[], label: string): DnsChange | null {
  if (published.length === 0) return null;
  const values = record.type === 'TXT' ? published : published.map(hostOf);
  const matching = values.find((value) => (record.type === 'TXT' ? sameTxt(value, record.value) : value === hostOf(record.value)));
  return {
    action: 'keep',
    type: record.type,
    host,
    value: record.value,
    purpose: 'provider',
    current: matching ?? joined(values),
    note: `${label}'s ${providerRecordKind(record)}: keep it while mail still goes through ${label} (see keep_old_records).`,
  };
}

function keepOldRecords(input: DnsPlanInput, include: string | null, label: string): string {
  const domain = hostOf(input.domain);
  // The provider's SPF record at the domain itself is the one ours is merged into: only its include goes.
  const spfRecords = input.providerRecords.filter(
    (record) => record.type === 'TXT' && hostOf(record.host) === domain && SPF.test(record.value.trim()),
  );
  const hosts = [...new Set(input.providerRecords.filter((record) => !spfRecords.includes(record)).map((record) => hostOf(record.host)))];
  const theirIncludes = [...new Set(spfRecords.flatMap((record) => [...record.value.matchAll(INCLUDE)].map((match) => match[1]!)))].filter(
    (value) => include === null || value.toLowerCase() !== include.toLowerCase(),
  );
  const records =
    hosts.length > 0
      ? `${label}'s DNS records (${hosts.join(', ')})`
      : `the DNS records you published for ${label} (the import found none listed)`;
  const spfHosts = [...new Set(spfRecords.map((record) => hostOf(record.host)))];
  const spf =
    theirIncludes.length > 0
      ? `, and take ${theirIncludes.map((value) => `include:${value}`).join(' and ')} out of the SPF record of ${spfHosts.join(', ')}`
      : '';
  const ours = include === null ? '' : ` Never remove include:${include} from the SPF record of ${domain}: it is ours.`;
  return `Keep ${records} until the last email sent through ${label} has been delivered and its bounces and complaints have come in (a few days after your code sends through us); then remove them${spf}.${ours}`;
}

/** How many records of a plan are still to publish (add or update). */
export function pendingChanges(plan: DnsPlan | null): number {
  return plan?.changes.filter((change) => change.action === 'add' || change.action === 'update').length ?? 0;
}

export function planDns(input: DnsPlanInput): DnsPlan {
  const label = PROVIDER_LABELS[input.provider];
  const include = ourInclude(input.required);
  const keep_old_records = keepOldRecords(input, include, label);
  const lookups = new Map<string, Lookup>();
  for (const query of dnsQueries(input.required, input.providerRecords))
    lookups.set(`${query.type} ${query.host}`, input.published(query.host, query.type));
  const lookup = (type: DnsRecordType, host: string) => lookups.get(`${type} ${host}`) ?? { kind: 'none' as const };

  if ([...lookups.values()].some((found) => found.kind === 'error')) {
    const changes = input.required.map(
      (record): DnsChange => ({
        action: 'add',
        type: record.type,
        host: hostOf(record.name),
        value: record.value,
        purpose: record.purpose,
        current: null,
        note: record.message ?? null,
      }),
    );
    return { checked: false, changes, keep_old_records };
  }

  const changes = planRecords(input.required, lookup);
  const ours = new Set(input.required.map((record) => `${record.type} ${hostOf(record.name)}`));
  const seen = new Set<string>();
  for (const record of input.providerRecords) {
    const host = hostOf(record.host);
    const key = `${record.type} ${host} ${record.value.trim()}`;
    if (ours.has(`${record.type} ${host}`) || seen.has(key)) continue;
    seen.add(key);
    const keep = keepProvider(record, host, valuesOf(lookup(record.type, host)), label);
    if (keep) changes.push(keep);
  }
  return { checked: true, changes, keep_old_records };
}
