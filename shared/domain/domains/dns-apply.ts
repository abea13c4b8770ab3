/**
 * DNS apply (`POST /domains/{id} {action: "apply"}`): writing a domain's records through the DNS host
 * of its zone (Amazon Route 53 or Cloudflare). The port the adapters implement (`DnsHost`) and its failures are
 * shared/ports/dns-host.ts; this file is what it reads and writes, and the pure planning: given what the host has now at each of our
 * (name, type) pairs, what each record set becomes and what to report per record.
 *
 * The decisions are the import's dns_plan rules (../imports/dns-plan.ts planRecords): the one SPF
 * record gets our include merged in (two SPF records are merged into one, never a second one added),
 * other TXT values at our hosts stay, an existing DMARC policy is kept, a CNAME or MX pointing
 * elsewhere is replaced. Record sets at names we do not publish are never read nor written.
 */
import { KIND_OF_PURPOSE, planRecords, txtKind, type DnsChange, type DnsRecordType } from './record-plan';
import type { DnsRecord, RecordPurpose } from './domain';

export const DNS_HOSTS = ['route53', 'cloudflare'] as const;
export type DnsHostName = (typeof DNS_HOSTS)[number];

export const DNS_HOST_LABELS: Record<DnsHostName, string> = { route53: 'Amazon Route 53', cloudflare: 'Cloudflare' };

/** Credentials of one DNS host. Used for one request (or stored sealed); never logged nor returned. */
export type DnsHostCredentials =
  | { provider: 'route53'; accessKeyId: string; secretAccessKey: string; sessionToken?: string }
  | { provider: 'cloudflare'; apiToken: string };

/**
 * What the adapter factory is given: the host and its credentials; Route 53 without (null) is the
 * service's own apply (the function's role). Cloudflare always has a token (the use case asks first).
 */
export type DnsHostRequest =
  | { provider: 'route53'; credentials: Extract<DnsHostCredentials, { provider: 'route53' }> | null }
  | { provider: 'cloudflare'; credentials: Extract<DnsHostCredentials, { provider: 'cloudflare' }> };

/** The hosted zone (Route 53) or zone (Cloudflare) holding a domain's records. */
export interface DnsZone {
  id: string;
  /** Lower case, no trailing dot. */
  name: string;
}

/**
 * One record set to write: every value of `type` at `name` once written. The adapter changes only the
 * difference from what it read (on Cloudflare each value is a record of its own).
 */
export interface RecordSetWrite {
  name: string;
  type: DnsRecordType;
  /** Values as the DNS answers them: TXT text unquoted (whole, not split), CNAME a host, MX "<priority> <host>". */
  values: string[];
}

export type RecordSetOutcome = { ok: true } | { ok: false; message: string };

export type ApplyAction = 'created' | 'updated' | 'unchanged' | 'failed';

/** What apply did with one of the domain's records. */
export interface ApplyRecordResult {
  purpose: RecordPurpose;
  type: DnsRecordType;
  name: string;
  /** The value that is (or was to be) published for this record: the merged SPF record, ours, or the kept DMARC policy. */
  value: string;
  action: ApplyAction;
  /** What was there before an update (several values joined with " | "); absent otherwise. */
  previous?: string;
  message: string;
}

export interface PlannedRecord {
  result: ApplyRecordResult;
  /** The set to write, or null when nothing changes. */
  write: RecordSetWrite | null;
}

/** A DNS name as the planner and the adapters compare it: lower case, no trailing dot. */
export const hostOf = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** MX values as the host answers them ("10 mx.example.net") -> the exchange hosts the planner compares. */
function exchanges(values: readonly string[]): string[] {
  return values.map((value) => hostOf(value.trim().split(/\s+/).pop() ?? ''));
}

function setValue(record: DnsRecord): string {
  return record.type === 'MX' ? `${record.priority ?? 10} ${record.value}` : record.value;
}

function rowFor(changes: readonly DnsChange[], record: DnsRecord): DnsChange | undefined {
  const host = hostOf(record.name);
  return changes.find((change) => change.purpose === record.purpose && change.host === host && change.type === record.type);
}

/**
 * Each of `records` planned against `published` (what the host has now, per record's name and type;
 * absent keys = nothing there). Pure.
 */
export function planApply(records: readonly DnsRecord[], published: ReadonlyMap<string, string[]>): PlannedRecord[] {
  const at = (type: DnsRecordType, host: string) => published.get(setKey(host, type)) ?? [];
  const changes = planRecords(records, (type, host) => {
    const values = type === 'MX' ? exchanges(at(type, host)) : at(type, host);
    return values.length > 0 ? { kind: 'found', values } : { kind: 'none' };
  });
  return records.map((record): PlannedRecord => {
    const name = hostOf(record.name);
    const current = at(record.type, name);
    const row = rowFor(changes, record);
    const base = { purpose: record.purpose, type: record.type, name };
    if (!row || row.action === 'done') {
      return {
        result: { ...base, value: row?.value ?? record.value, action: 'unchanged', message: 'Already published as needed.' },
        write: null,
      };
    }
    if (row.action === 'keep') {
      // An existing DMARC policy is the domain owner's: never replaced by our suggestion.
      return { result: { ...base, value: row.value, action: 'unchanged', message: row.note ?? 'Kept as it is.' }, write: null };
    }
    const ours = record.type === 'MX' ? setValue(record) : row.value;
    let values: string[];
    if (record.type === 'TXT') {
      const kind = KIND_OF_PURPOSE[record.purpose] ?? null;
      // Add: ours joins the other TXT values. Update: the values of our kind (the SPF record(s), an old
      // ownership token, another DKIM key at our selector) give way to ours; the others stay.
      const kept = row.action === 'update' && kind !== null ? current.filter((value) => txtKind(value) !== kind) : current;
      values = [...kept, ours];
    } else {
      values = [ours];
    }
    const write: RecordSetWrite = { name, type: record.type, values };
    if (row.action === 'add') {
      const others =
        current.length > 0 ? ` The other ${record.type} record${current.length === 1 ? '' : 's'} at ${name} stay as they are.` : '';
      return { result: { ...base, value: ours, action: 'created', message: `Created.${others}` }, write };
    }
    return {
      result: { ...base, value: ours, action: 'updated', previous: current.join(' | '), message: updateMessage(record, current, ours) },
      write,
    };
  });
}

function updateMessage(record: DnsRecord, current: readonly string[], ours: string): string {
  if (record.purpose === 'spf') {
    const spf = current.filter((value) => txtKind(value) === 'spf');
    const include = /include:(\S+)/i.exec(record.value)?.[1] ?? 'ours';
    if (spf.length > 1)
      return `Merged the ${spf.length} SPF records into one ("${ours}"), with include:${include}: a domain must have exactly one SPF record.`;
    return `Added include:${include} to the existing SPF record; its other mechanisms are kept.`;
  }
  if (record.type === 'CNAME') return `Pointed ${hostOf(record.name)} to ${record.value} (it pointed to ${current.join(', ')}).`;
  if (record.type === 'MX') return `Replaced the MX records of ${hostOf(record.name)} (${current.join(', ')}) with ${ours}.`;
  if (record.purpose === 'dkim') return `Replaced the DKIM key published at ${hostOf(record.name)} with this domain's key.`;
  return `Replaced the previous ${record.purpose} value at ${hostOf(record.name)}; other TXT records there stay.`;
}

/** The key of a (name, type) pair in `published`. */
export function setKey(name: string, type: DnsRecordType): string {
  return `${type} ${hostOf(name)}`;
}

/** The names a zone of `name` may have, longest first: the name itself and each parent with at least two labels. */
export function zoneCandidates(name: string): string[] {
  const labels = hostOf(name).split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}
