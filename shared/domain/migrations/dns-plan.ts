/**
 * A domain's dns_plan in an import report (spec, Imports): for each DNS record we need, what to do given
 * what is published now, and which records of the provider being left to keep for now. Pure: the use
 * case resolves every host once (dnsQueries lists them) and passes the answers as `published`.
 *
 * Actions:
 * - done: the exact value is published already (for SPF: the one SPF record already has our include).
 * - add: nothing of that kind at the host: publish the record. Other TXT values at the same host (a
 *   google-site-verification at the apex) are not in the way: several TXT records may share a host.
 * - update: something at the host must change, `current` says what is there: the one SPF record gets
 *   our `include:<x>` inserted before its final `all` (or `redirect=`/`exp=` modifier), never a second SPF
 *   record; two SPF records (SPF fails for every message then) are merged into one, note saying so; a
 *   CNAME pointing elsewhere; a different ownership or DKIM value at our host; other MX hosts.
 * - keep: a record that must stay as it is. (1) Every other TXT value at a host where we change a TXT
 *   record (so nobody "fixes" the apex by replacing its TXT records with ours). (2) An existing DMARC
 *   record that is not ours: a domain's DMARC policy is its owner's, ours (p=none) is only a suggestion,
 *   and replacing a p=reject by it would weaken the domain. (3) Each record the provider asked for that
 *   is published (DKIM keys, return-path and tracking CNAMEs, MX), while mail still goes through the
 *   provider: removing them before the switch is complete breaks its signing and bounces. A provider
 *   record at a host and type we change is covered by our row (its SPF record is the one we merge into).
 *
 * When any lookup failed (kind `error`), nothing can be compared: `checked` is false and every record of
 * ours is an `add` (spec), with no keep rows; `keep_old_records` is given all the same.
 */
import type { DnsRecord, RecordPurpose } from '../domains/domain';
import type { Lookup } from '../domains/evaluate';
import { PROVIDER_LABELS, type ProviderName, type SourceDnsRecord } from './source';

export type DnsRecordType = 'TXT' | 'CNAME' | 'MX';

/** What is published at a host (lower-case, no trailing dot), for one record type. */
export type PublishedDns = (host: string, type: DnsRecordType) => Lookup;

export type DnsChangeAction = 'add' | 'update' | 'keep' | 'done';

/** Ours, `provider` (a record the provider asked for), or `other` (someone else's, at a host we touch). */
export type DnsChangePurpose = RecordPurpose | 'provider' | 'other';

export interface DnsChange {
  action: DnsChangeAction;
  type: DnsRecordType;
  host: string;
  /** The value to publish (add, update), that is published (done), or to leave (keep). */
  value: string;
  purpose: DnsChangePurpose;
  /** What is published there now (several values joined with " | "); null when nothing (or unchecked). */
  current: string | null;
  note: string | null;
}

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

const SPF = /^v=spf1(\s|$)/i;
const ALL = /^[+\-~?]?all$/i;
/** An SPF modifier (`redirect=`, `exp=`, unknown `name=`): comes after the mechanisms. */
const MODIFIER = /^[a-z][a-z0-9_.-]*=/i;
const INCLUDE = /(?:^|\s)\+?include:(\S+)/gi;

const hostOf = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');
const joined = (values: readonly string[]) => (values.length === 0 ? null : values.join(' | '));

/** The (host, type) pairs a plan reads: ours and the provider's, each once. */
export function dnsQueries(required: readonly Pick<DnsRecord, 'name' | 'type'>[], providerRecords: readonly SourceDnsRecord[]): { host: string; type: DnsRecordType }[] {
  const queries = new Map<string, { host: string; type: DnsRecordType }>();
  for (const record of [...required.map((r) => ({ host: r.name, type: r.type })), ...providerRecords]) {
    const host = hostOf(record.host);
    queries.set(`${record.type} ${host}`, { host, type: record.type });
  }
  return [...queries.values()];
}

export type TxtKind = 'spf' | 'dkim' | 'dmarc' | 'ownership' | null;

/** What a TXT value is (SPF, DMARC, our ownership token, a DKIM key), or null for anything else. */
export function txtKind(value: string): TxtKind {
  const text = value.trim();
  if (SPF.test(text)) return 'spf';
  if (/^v=dmarc1/i.test(text)) return 'dmarc';
  if (/^service-verification=/i.test(text)) return 'ownership';
  if (/^v=dkim1/i.test(text) || /(^|;)\s*p=/i.test(text)) return 'dkim';
  return null;
}

export const KIND_OF_PURPOSE: Partial<Record<RecordPurpose, TxtKind>> = { ownership: 'ownership', dkim: 'dkim', dmarc: 'dmarc', spf: 'spf' };

/** TXT values compared without whitespace (DNS consoles split and space long values differently). */
function sameTxt(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

function termsOf(record: string): string[] {
  return record.trim().split(/\s+/);
}

function includes(terms: readonly string[], include: string): boolean {
  const wanted = include.toLowerCase();
  return terms.some((term) => {
    const lower = term.toLowerCase();
    return lower === `include:${wanted}` || lower === `+include:${wanted}`;
  });
}

/** `terms` with `added` inserted before the first `all` mechanism or modifier (at the end if neither). */
function insertBeforeEnd(terms: readonly string[], added: readonly string[]): string[] {
  const at = terms.findIndex((term, index) => index > 0 && (ALL.test(term) || MODIFIER.test(term)));
  const index = at === -1 ? terms.length : at;
  return [...terms.slice(0, index), ...added, ...terms.slice(index)];
}

/**
 * The SPF record `existing` with `include:<include>` before its final `all` (or its `redirect=`/`exp=`
 * modifier), spaces normalised; unchanged (but for spaces) when it includes it already.
 */
export function mergeSpf(existing: string, include: string): string {
  const terms = termsOf(existing);
  return (includes(terms, include) ? terms : insertBeforeEnd(terms, [`include:${include}`])).join(' ');
}

/** Several SPF records as one: the first, plus the others' mechanisms it lacks, plus our include. */
export function mergeSpfRecords(records: readonly string[], include: string): string {
  const [first = 'v=spf1 ~all', ...others] = records;
  const terms = termsOf(first);
  const present = new Set(terms.map((term) => term.toLowerCase()));
  const added: string[] = [];
  for (const other of others) {
    for (const term of termsOf(other).slice(1)) {
      if (ALL.test(term) || MODIFIER.test(term) || present.has(term.toLowerCase())) continue;
      present.add(term.toLowerCase());
      added.push(term);
    }
  }
  if (!includes([...terms, ...added], include)) added.push(`include:${include}`);
  return insertBeforeEnd(terms, added).join(' ');
}

/** Our SPF include (`spf.example.net`), from our SPF record's value; null when there is none. */
function ourInclude(required: readonly DnsRecord[]): string | null {
  const spf = required.find((record) => record.purpose === 'spf');
  if (!spf) return null;
  const match = [...spf.value.matchAll(INCLUDE)][0];
  return match ? match[1]! : null;
}

function valuesOf(lookup: Lookup): string[] {
  return lookup.kind === 'found' ? lookup.values.map((value) => value.trim()) : [];
}

/** Other TXT values at a host of ours: keep rows. */
function keepOthers(host: string, values: readonly string[]): DnsChange[] {
  return values.map((value) => ({ action: 'keep', type: 'TXT', host, value, purpose: 'other', current: value, note: 'Another TXT record at this host: leave it as it is.' }));
}

function planSpf(record: DnsRecord, host: string, values: readonly string[], include: string | null): DnsChange[] {
  const spf = values.filter((value) => SPF.test(value));
  const others = keepOthers(host, values.filter((value) => !SPF.test(value)));
  const base = { type: 'TXT' as const, host, purpose: 'spf' as const };
  if (spf.length === 0 || include === null) {
    return [{ ...base, action: 'add', value: record.value, current: null, note: `No SPF record at ${host}: publish this one.` }, ...others];
  }
  if (spf.length > 1) {
    const value = mergeSpfRecords(spf, include);
    return [
      { ...base, action: 'update', value, current: joined(spf), note: `${host} has ${spf.length} SPF records, and a domain must have exactly one (with two, SPF fails for every message): publish this one record in their place and delete the others.` },
      ...others,
    ];
  }
  const current = spf[0]!;
  if (includes(termsOf(current), include)) return [{ ...base, action: 'done', value: current, current, note: null }, ...others];
  return [{ ...base, action: 'update', value: mergeSpf(current, include), current, note: `Add include:${include} to the existing SPF record (edit it; never publish a second SPF record).` }, ...others];
}

function planTxt(record: DnsRecord, host: string, values: readonly string[]): DnsChange[] {
  const kind = KIND_OF_PURPOSE[record.purpose] ?? null;
  const base = { type: 'TXT' as const, host, purpose: record.purpose };
  const exact = values.find((value) => sameTxt(value, record.value));
  const sameKind = values.filter((value) => kind !== null && txtKind(value) === kind && value !== exact);
  const others = keepOthers(host, values.filter((value) => value !== exact && !sameKind.includes(value)));
  if (exact !== undefined) return [{ ...base, action: 'done', value: exact, current: exact, note: null }, ...keepOthers(host, sameKind), ...others];
  if (sameKind.length === 0) return [{ ...base, action: 'add', value: record.value, current: null, note: record.message ?? null }, ...others];
  if (record.purpose === 'dmarc') {
    return [
      { ...base, action: 'keep', value: sameKind[0]!, current: joined(sameKind), note: `The domain has a DMARC policy already: keep it (ours, "${record.value}", is only a suggestion).` },
      ...keepOthers(host, sameKind.slice(1)),
      ...others,
    ];
  }
  return [{ ...base, action: 'update', value: record.value, current: joined(sameKind), note: `Replace the ${kind} record at ${host} with this value.` }, ...others];
}

function planHostRecord(record: DnsRecord, host: string, values: readonly string[]): DnsChange {
  const base = { type: record.type, host, purpose: record.purpose };
  const found = values.map(hostOf);
  const note = record.type === 'MX' && record.priority !== undefined ? `Priority ${record.priority}.` : (record.message ?? null);
  if (found.includes(hostOf(record.value))) return { ...base, action: 'done', value: record.value, current: joined(found), note: null };
  if (found.length === 0) return { ...base, action: 'add', value: record.value, current: null, note };
  const replaced = record.type === 'CNAME' ? `${host} points to ${found.join(', ')}; point it to ${record.value} instead.` : `Replace the MX records of ${host} (${found.join(', ')}) with this one.`;
  return { ...base, action: 'update', value: record.value, current: joined(found), note: replaced };
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
  const spfRecords = input.providerRecords.filter((record) => record.type === 'TXT' && hostOf(record.host) === domain && SPF.test(record.value.trim()));
  const hosts = [...new Set(input.providerRecords.filter((record) => !spfRecords.includes(record)).map((record) => hostOf(record.host)))];
  const theirIncludes = [...new Set(spfRecords.flatMap((record) => [...record.value.matchAll(INCLUDE)].map((match) => match[1]!)))].filter(
    (value) => include === null || value.toLowerCase() !== include.toLowerCase(),
  );
  const records = hosts.length > 0 ? `${label}'s DNS records (${hosts.join(', ')})` : `the DNS records you published for ${label} (the import found none listed)`;
  const spfHosts = [...new Set(spfRecords.map((record) => hostOf(record.host)))];
  const spf = theirIncludes.length > 0 ? `, and take ${theirIncludes.map((value) => `include:${value}`).join(' and ')} out of the SPF record of ${spfHosts.join(', ')}` : '';
  const ours = include === null ? '' : ` Never remove include:${include} from the SPF record of ${domain}: it is ours.`;
  return `Keep ${records} until the last email sent through ${label} has been delivered and its bounces and complaints have come in (a few days after your code sends through us); then remove them${spf}.${ours}`;
}

/**
 * The rows of our own records (and the keep rows of other TXT values at their hosts) given what is
 * published: the part of a plan that does not depend on a provider being left. `published` answers
 * values as found (for MX and CNAME: host names). Also used by DNS apply (shared/domain/domains/dns-apply.ts).
 */
export function planRecords(required: readonly DnsRecord[], published: (type: DnsRecordType, host: string) => Lookup): DnsChange[] {
  const include = ourInclude(required);
  const changes: DnsChange[] = [];
  for (const record of required) {
    const host = hostOf(record.name);
    const values = valuesOf(published(record.type, host));
    if (record.purpose === 'spf') changes.push(...planSpf(record, host, values, include));
    else if (record.type === 'TXT') changes.push(...planTxt(record, host, values));
    else changes.push(planHostRecord(record, host, values));
  }
  return changes;
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
  for (const query of dnsQueries(input.required, input.providerRecords)) lookups.set(`${query.type} ${query.host}`, input.published(query.host, query.type));
  const lookup = (type: DnsRecordType, host: string) => lookups.get(`${type} ${host}`) ?? { kind: 'none' as const };

  if ([...lookups.values()].some((found) => found.kind === 'error')) {
    const changes = input.required.map(
      (record): DnsChange => ({ action: 'add', type: record.type, host: hostOf(record.name), value: record.value, purpose: record.purpose, current: null, note: record.message ?? null }),
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
