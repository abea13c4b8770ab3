/**
 * A zone's DNS records as views over the DNS emulator's record sets: each value of a set in the zone (at
 * or below its name, not inside a more specific zone of the fake) is one record, whose id is derived from
 * (name, type, value). Writes go through the DNS emulator; its refusals become Cloudflare's errors.
 */
import { createHash } from 'node:crypto';
import { DnsRecordError } from '../dns/errors';
import { setsOfZone, toQuoted } from '../dns/hosted';
import type { DnsRecordSet } from '../dns/types';
import { CloudflareFault } from './errors';
import type { CloudflareState } from './state';
import type { CloudflareZone, RecordView } from './types';

/** A record's found place: its set, and its value in it. */
export interface FoundRecord {
  set: DnsRecordSet;
  value: string;
}

const EPOCH = '2024-01-01T00:00:00.000000Z';

const recordId = (name: string, type: string, value: string) =>
  createHash('sha256').update(`${name}|${type}|${value}`).digest('hex').slice(0, 32);

const setsOf = (state: CloudflareState, zone: CloudflareZone): DnsRecordSet[] =>
  setsOfZone(
    state.dns,
    zone.name,
    state.zones.map((z) => z.name),
  );

/** The record of `value` in `set` as the API answers it: TXT quoted, MX's priority apart from its content. */
export function recordView(zone: CloudflareZone, set: DnsRecordSet, value: string): RecordView {
  const mx = set.type === 'MX' ? /^(\d+)\s+(\S+)$/.exec(value) : null;
  return {
    id: recordId(set.name, set.type, value),
    zone_id: zone.id,
    zone_name: zone.name,
    name: set.name,
    type: set.type,
    content: set.type === 'TXT' ? toQuoted(value) : mx ? mx[2]! : value,
    ...(mx ? { priority: Number(mx[1]) } : {}),
    proxiable: set.type === 'A' || set.type === 'AAAA' || set.type === 'CNAME',
    proxied: false,
    ttl: set.ttl ?? 300,
    comment: null,
    tags: [],
    created_on: EPOCH,
    modified_on: EPOCH,
  };
}

/** The zone's records: one per value of each set in it. */
export function zoneRecords(state: CloudflareState, zone: CloudflareZone): RecordView[] {
  return setsOf(state, zone).flatMap((set) => set.values.map((value) => recordView(zone, set, value)));
}

/** The record `id` of the zone; 404 code 81044 when there is none. */
export function findRecord(state: CloudflareState, zone: CloudflareZone, id: string): FoundRecord {
  for (const set of setsOf(state, zone)) {
    for (const value of set.values) if (recordId(set.name, set.type, value) === id) return { set, value };
  }
  throw new CloudflareFault(404, 81044, 'Record does not exist.');
}

/** Takes `value` out of its set (the set goes when it was its last value). */
export function removeValue(state: CloudflareState, set: DnsRecordSet, value: string): void {
  const rest = set.values.filter((v) => v !== value);
  if (rest.length === 0) state.dns.deleteRecords(set.name, set.type);
  else state.dns.setRecords({ ...set, values: rest });
}

/** Runs writes to the DNS emulator; its refusals (a CNAME next to other records) become Cloudflare's. */
export function writeThrough(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (error instanceof DnsRecordError) {
      const cname = /CNAME/.test(error.message);
      throw new CloudflareFault(
        400,
        cname ? 81053 : 9005,
        cname ? `An A, AAAA, or CNAME record with that host already exists. (${error.message})` : error.message,
      );
    }
    throw error;
  }
}
