/**
 * Authoritative answers from the local records.
 *
 * A question is local when its name is at or below a local zone apex (see RecordStore.zoneFor and
 * names.zoneOf). For a local name:
 * - records of the asked type -> NOERROR with them (ANY: every record set at the name);
 * - a CNAME at the name (question type other than CNAME/ANY) -> the CNAME, then the answer for its
 *   target when the target is local too (chains are followed up to MAX_CHAIN links; a loop stops the
 *   chain). A target outside the local zones is returned in `external` for the caller to resolve;
 * - nothing of that type, but the name exists (records of other types, names below it, or the zone
 *   apex) -> NOERROR without answers (NODATA) and the zone's SOA in the authority section;
 * - otherwise NXDOMAIN with the SOA.
 * Each zone apex also answers SOA and NS queries with synthesized records.
 */
import { RCODE } from './constants';
import type { Question, ResourceRecord } from './dns-message';
import { canonicalName } from './names';
import type { RecordStore } from './store';
import type { ValidSet } from './validate';

/** Longest CNAME chain followed. */
const MAX_CHAIN = 8;
/** Name server and SOA MNAME of the synthesized zone data. */
export const SYNTHETIC_NS = 'localhost';
/** TTL (and SOA MINIMUM) of the SOA, NS and negative answers: 0, so nobody caches a "not there yet". */
export const NEGATIVE_TTL = 0;

export interface LocalAnswer {
  rcode: number;
  answers: ResourceRecord[];
  authorities: ResourceRecord[];
  /** A CNAME target outside the local zones, still to be resolved for the question's type. */
  external?: string;
}

function toRecords(owner: string, valid: ValidSet): ResourceRecord[] {
  const { type, ttl } = valid.set;
  return valid.data.map((data) => ({ name: owner, type, class: 'IN', ttl, data }) as ResourceRecord);
}

/** The zone's SOA (RFC 1035 3.3.13), also the authority of negative answers (RFC 2308 3). */
export function soaRecord(store: RecordStore, zone: string): ResourceRecord {
  const data = {
    mname: SYNTHETIC_NS,
    rname: `hostmaster.${zone}`,
    serial: store.serial,
    refresh: 3600,
    retry: 600,
    expire: 86400,
    minimum: NEGATIVE_TTL,
  };
  return { name: zone, type: 'SOA', class: 'IN', ttl: NEGATIVE_TTL, data };
}

function nsRecord(zone: string): ResourceRecord {
  return { name: zone, type: 'NS', class: 'IN', ttl: NEGATIVE_TTL, data: SYNTHETIC_NS };
}

/** Records of `qtype` at one name (no CNAME processing). */
function recordsAt(store: RecordStore, name: string, owner: string, zone: string, qtype: string): ResourceRecord[] {
  const node = store.get(name);
  const out: ResourceRecord[] = [];
  if (name === zone && (qtype === 'SOA' || qtype === 'ANY')) out.push({ ...soaRecord(store, zone), name: owner });
  if (name === zone && (qtype === 'NS' || qtype === 'ANY')) out.push({ ...nsRecord(zone), name: owner });
  for (const valid of node?.values() ?? []) {
    if (qtype === 'ANY' || valid.set.type === qtype) out.push(...toRecords(owner, valid));
  }
  return out;
}

/** The local answer to a question, or undefined when its name is in no local zone. */
export function answerLocally(store: RecordStore, question: Question): LocalAnswer | undefined {
  const qname = canonicalName(question.name);
  let zone = store.zoneFor(qname);
  if (zone === undefined) return undefined;
  const qtype = question.type;
  const answers: ResourceRecord[] = [];
  const visited = new Set<string>();
  let name = qname;
  let owner = question.name;
  for (;;) {
    visited.add(name);
    const cname = store.get(name)?.get('CNAME');
    if (cname && qtype !== 'CNAME') {
      answers.push(...toRecords(owner, cname));
      const target = cname.set.values[0] ?? '';
      if (qtype === 'ANY' || visited.has(target) || visited.size >= MAX_CHAIN) return { rcode: RCODE.NOERROR, answers, authorities: [] };
      const targetZone = store.zoneFor(target);
      if (targetZone === undefined) return { rcode: RCODE.NOERROR, answers, authorities: [], external: target };
      name = target;
      owner = target;
      zone = targetZone;
      continue;
    }
    const found = recordsAt(store, name, owner, zone, qtype);
    if (found.length > 0) return { rcode: RCODE.NOERROR, answers: [...answers, ...found], authorities: [] };
    const exists = name === zone || store.exists(name);
    return { rcode: exists ? RCODE.NOERROR : RCODE.NXDOMAIN, answers, authorities: [soaRecord(store, zone)] };
  }
}
