/**
 * What to publish at a domain's DNS for each record we need, given what is published there now: the rows
 * of a DNS plan that do not depend on a provider being left. Used by DNS apply (./dns-apply.ts) and by an
 * import's dns_plan (shared/domain/imports/dns-plan.ts, which adds the rows of the provider's records).
 * Pure: the caller resolves every host and passes the answers as `published`.
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
 */
import type { DnsRecord, RecordPurpose } from './domain';
import type { Lookup } from './evaluate';

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

export const SPF = /^v=spf1(\s|$)/i;
const ALL = /^[+\-~?]?all$/i;
/** An SPF modifier (`redirect=`, `exp=`, unknown `name=`): comes after the mechanisms. */
const MODIFIER = /^[a-z][a-z0-9_.-]*=/i;
export const INCLUDE = /(?:^|\s)\+?include:(\S+)/gi;

export const hostOf = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');
export const joined = (values: readonly string[]) => (values.length === 0 ? null : values.join(' | '));

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

export const KIND_OF_PURPOSE: Partial<Record<RecordPurpose, TxtKind>> = {
  ownership: 'ownership',
  dkim: 'dkim',
  dmarc: 'dmarc',
  spf: 'spf',
};

/** TXT values compared without whitespace (DNS consoles split and space long values differently). */
export function sameTxt(a: string, b: string): boolean {
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
export function ourInclude(required: readonly DnsRecord[]): string | null {
  const spf = required.find((record) => record.purpose === 'spf');
  if (!spf) return null;
  const match = [...spf.value.matchAll(INCLUDE)][0];
  return match ? match[1]! : null;
}

export function valuesOf(lookup: Lookup): string[] {
  return lookup.kind === 'found' ? lookup.values.map((value) => value.trim()) : [];
}

/** Other TXT values at a host of ours: keep rows. */
function keepOthers(host: string, values: readonly string[]): DnsChange[] {
  return values.map((value) => ({
    action: 'keep',
    type: 'TXT',
    host,
    value,
    purpose: 'other',
    current: value,
    note: 'Another TXT record at this host: leave it as it is.',
  }));
}

function planSpf(record: DnsRecord, host: string, values: readonly string[], include: string | null): DnsChange[] {
  const spf = values.filter((value) => SPF.test(value));
  const others = keepOthers(
    host,
    values.filter((value) => !SPF.test(value)),
  );
  const base = { type: 'TXT' as const, host, purpose: 'spf' as const };
  if (spf.length === 0 || include === null) {
    return [{ ...base, action: 'add', value: record.value, current: null, note: `No SPF record at ${host}: publish this one.` }, ...others];
  }
  if (spf.length > 1) {
    const value = mergeSpfRecords(spf, include);
    return [
      {
        ...base,
        action: 'update',
        value,
        current: joined(spf),
        note: `${host} has ${spf.length} SPF records, and a domain must have exactly one (with two, SPF fails for every message): publish this one record in their place and delete the others.`,
      },
      ...others,
    ];
  }
  const current = spf[0]!;
  if (includes(termsOf(current), include)) return [{ ...base, action: 'done', value: current, current, note: null }, ...others];
  return [
    {
      ...base,
      action: 'update',
      value: mergeSpf(current, include),
      current,
      note: `Add include:${include} to the existing SPF record (edit it; never publish a second SPF record).`,
    },
    ...others,
  ];
}

function planTxt(record: DnsRecord, host: string, values: readonly string[]): DnsChange[] {
  const kind = KIND_OF_PURPOSE[record.purpose] ?? null;
  const base = { type: 'TXT' as const, host, purpose: record.purpose };
  const exact = values.find((value) => sameTxt(value, record.value));
  const sameKind = values.filter((value) => kind !== null && txtKind(value) === kind && value !== exact);
  const others = keepOthers(
    host,
    values.filter((value) => value !== exact && !sameKind.includes(value)),
  );
  if (exact !== undefined)
    return [{ ...base, action: 'done', value: exact, current: exact, note: null }, ...keepOthers(host, sameKind), ...others];
  if (sameKind.length === 0)
    return [{ ...base, action: 'add', value: record.value, current: null, note: record.message ?? null }, ...others];
  if (record.purpose === 'dmarc') {
    return [
      {
        ...base,
        action: 'keep',
        value: sameKind[0]!,
        current: joined(sameKind),
        note: `The domain has a DMARC policy already: keep it (ours, "${record.value}", is only a suggestion).`,
      },
      ...keepOthers(host, sameKind.slice(1)),
      ...others,
    ];
  }
  return [
    {
      ...base,
      action: 'update',
      value: record.value,
      current: joined(sameKind),
      note: `Replace the ${kind} record at ${host} with this value.`,
    },
    ...others,
  ];
}

function planHostRecord(record: DnsRecord, host: string, values: readonly string[]): DnsChange {
  const base = { type: record.type, host, purpose: record.purpose };
  const found = values.map(hostOf);
  const note = record.type === 'MX' && record.priority !== undefined ? `Priority ${record.priority}.` : (record.message ?? null);
  if (found.includes(hostOf(record.value))) return { ...base, action: 'done', value: record.value, current: joined(found), note: null };
  if (found.length === 0) return { ...base, action: 'add', value: record.value, current: null, note };
  const replaced =
    record.type === 'CNAME'
      ? `${host} points to ${found.join(', ')}; point it to ${record.value} instead.`
      : `Replace the MX records of ${host} (${found.join(', ')}) with this one.`;
  return { ...base, action: 'update', value: record.value, current: joined(found), note: replaced };
}

/**
 * The rows of our own records (and the keep rows of other TXT values at their hosts) given what is
 * published: the part of a plan that does not depend on a provider being left. `published` answers
 * values as found (for MX and CNAME: host names). Used by DNS apply (./dns-apply.ts) and by an import's plan.
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
