/**
 * Evaluates what DNS returned against the records a domain must publish, record by record, with a
 * message that says what is wrong (found vs expected) and how to fix it. Pure.
 */
import { parseDkimTxt, publicKeyMatches } from '../../lib/dkim/txt-record';
import type { DnsRecord, DomainStatus, RecordStatus } from './domain';

/** One DNS lookup's outcome: values found (TXT chunks already joined), nothing, or a temporary error. */
export type Lookup = { kind: 'found'; values: string[] } | { kind: 'none' } | { kind: 'error'; message: string };

const norm = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

function result(record: DnsRecord, status: RecordStatus, found: string[], message?: string): DnsRecord {
  const { message: _previous, found: _found, ...rest } = record;
  return { ...rest, status, ...(found.length ? { found } : {}), ...(message ? { message } : {}) };
}

function notFound(record: DnsRecord, extra = ''): DnsRecord {
  return result(
    record,
    'not_found',
    [],
    `No ${record.type} record found at ${record.name}. Publish ${record.type} ${record.name} with the value "${record.value}".${extra}`,
  );
}

function temporary(record: DnsRecord, lookup: { message: string }): DnsRecord {
  return result(
    record,
    'temporary_failure',
    [],
    `DNS lookup of ${record.name} failed (${lookup.message}); this is usually temporary, verify again later.`,
  );
}

export function evaluateOwnership(record: DnsRecord, lookup: Lookup): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  if (lookup.kind === 'none') return notFound(record);
  if (lookup.values.some((value) => value.trim() === record.value)) return result(record, 'verified', lookup.values);
  return result(record, 'invalid', lookup.values, `The TXT records at ${record.name} do not contain "${record.value}".`);
}

export function evaluateDkim(record: DnsRecord, lookup: Lookup, publicKey: string): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  if (lookup.kind === 'none') return notFound(record);
  if (lookup.values.some((value) => publicKeyMatches(value, publicKey))) return result(record, 'verified', lookup.values);
  const message = lookup.values.every((value) => !parseDkimTxt(value)?.p)
    ? `The TXT record at ${record.name} is not a DKIM key record with a p= key. Publish "${record.value}".`
    : `The DKIM key published at ${record.name} is not this domain's key. Replace it with "${record.value}".`;
  return result(record, 'invalid', lookup.values, message);
}

export function evaluateReturnPath(record: DnsRecord, lookup: Lookup): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  if (lookup.kind === 'none') return notFound(record);
  if (lookup.values.some((value) => norm(value) === norm(record.value))) return result(record, 'verified', lookup.values.map(norm));
  return result(
    record,
    'invalid',
    lookup.values.map(norm),
    `${record.name} points to ${lookup.values.map(norm).join(', ')}; it must be a CNAME to ${record.value}.`,
  );
}

/** SPF: exactly one `v=spf1` record at the domain, containing the service's include (RFC 7208 4.5). */
export function evaluateSpf(record: DnsRecord, lookup: Lookup, include: string): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  const spf = lookup.kind === 'found' ? lookup.values.filter((value) => /^v=spf1(\s|$)/i.test(value.trim())) : [];
  if (spf.length === 0) return notFound(record);
  if (spf.length > 1) {
    return result(
      record,
      'invalid',
      spf,
      `Found ${spf.length} SPF records at ${record.name}; a domain must have exactly one (two make SPF fail for every message). Merge them into one record that contains include:${include}.`,
    );
  }
  const current = spf[0]!.trim();
  const mechanisms = current.split(/\s+/).map((term) => term.toLowerCase());
  if (mechanisms.includes(`include:${include.toLowerCase()}`) || mechanisms.includes(`+include:${include.toLowerCase()}`)) {
    return result(record, 'verified', spf);
  }
  const merged = current.replace(/^v=spf1/i, `v=spf1 include:${include}`);
  return result(record, 'invalid', spf, `Your SPF record does not include include:${include}. Change it to: "${merged}".`);
}

export function evaluateDmarc(record: DnsRecord, lookup: Lookup): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  const dmarc = lookup.kind === 'found' ? lookup.values.filter((value) => /^v=DMARC1/i.test(value.trim())) : [];
  if (dmarc.length === 1) return result(record, 'verified', dmarc);
  if (dmarc.length > 1)
    return result(record, 'invalid', dmarc, `Found ${dmarc.length} DMARC records at ${record.name}; publish exactly one.`);
  return notFound(record, ' DMARC is recommended, not required.');
}

export function evaluateMx(record: DnsRecord, lookup: Lookup): DnsRecord {
  if (lookup.kind === 'error') return temporary(record, lookup);
  if (lookup.kind === 'none') return notFound(record, ' Publish it after the domain is verified to receive mail there.');
  if (lookup.values.some((value) => norm(value) === norm(record.value))) return result(record, 'verified', lookup.values.map(norm));
  return result(
    record,
    'invalid',
    lookup.values.map(norm),
    `The MX records of ${record.name} point to ${lookup.values.map(norm).join(', ')}, not ${record.value}.`,
  );
}

/** The domain's status after a check: all required records verified -> verified. */
export function domainStatusAfterCheck(previous: DomainStatus, records: DnsRecord[]): DomainStatus {
  const required = records.filter((record) => record.required);
  if (required.every((record) => record.status === 'verified')) return 'verified';
  // A temporary DNS failure never changes the status.
  if (required.some((record) => record.status === 'temporary_failure')) return previous;
  return previous === 'verified' || previous === 'failed' ? 'failed' : 'pending';
}
