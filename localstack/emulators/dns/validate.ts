/**
 * Validation of record sets given to the control API. Returns the set in canonical form (name lower
 * case without trailing dot, ttl filled in, names inside values canonical) with each value's RDATA as
 * dns-packet writes it, or throws DnsRecordError saying what is wrong.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { MxData } from 'dns-packet';
import { DnsRecordError } from './errors';
import { parseName } from './names';
import { rdataBytes } from './packet-codecs';
import { txtStrings } from './txt-strings';
import { DEFAULT_TTL, RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from './types';

/** Longest TXT value accepted, in UTF-8 bytes (a 4096-bit DKIM key record is about 750). */
export const MAX_TXT_BYTES = 4096;
/** Most values in one record set. */
export const MAX_VALUES = 100;
/** Most RDATA bytes in one record set, so that a full answer always fits a TCP message. */
export const MAX_SET_BYTES = 32768;
const MAX_TTL = 2147483647;

/** dns-packet's RDATA of a value: an address or a name (A, AAAA, CNAME), the TXT strings, or MX data. */
export type RecordData = string | Buffer[] | MxData;

export interface ValidSet {
  set: DnsRecordSet & { ttl: number };
  /** One per value, in order. */
  data: RecordData[];
}

export function parseRecordType(input: unknown): DnsRecordType {
  const type = typeof input === 'string' ? input.toUpperCase() : input;
  if (!RECORD_TYPES.includes(type as DnsRecordType)) {
    throw new DnsRecordError(`type must be one of ${RECORD_TYPES.join(', ')}; got ${JSON.stringify(input)}`);
  }
  return type as DnsRecordType;
}

function parseValue(type: DnsRecordType, value: string, where: string): [string, RecordData] {
  switch (type) {
    case 'A':
      // dns-packet's address codec does not validate: '256.1.1.1' would be written as 0.1.1.1.
      if (!isIPv4(value)) throw new DnsRecordError(`${where}: '${value}' is not an IPv4 address`);
      return [value, value];
    case 'AAAA':
      if (!isIPv6(value) || value.includes('%')) throw new DnsRecordError(`${where}: '${value}' is not an IPv6 address`);
      return [value.toLowerCase(), value.toLowerCase()];
    case 'CNAME': {
      const target = parseName(value, `${where} (CNAME target)`);
      return [target, target];
    }
    case 'MX': {
      const m = /^(\d{1,5})\s+(\S+)$/.exec(value.trim());
      const preference = Number(m?.[1]);
      if (!m?.[2] || preference > 65535) {
        throw new DnsRecordError(`${where}: MX value must be "<priority 0-65535> <exchange>", e.g. "10 mx.example.com"; got '${value}'`);
      }
      const exchange = m[2] === '.' ? '' : parseName(m[2], `${where} (MX exchange)`);
      return [`${preference} ${exchange === '' ? '.' : exchange}`, { preference, exchange: exchange === '' ? '.' : exchange }];
    }
    case 'TXT': {
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes > MAX_TXT_BYTES) throw new DnsRecordError(`${where}: TXT value of ${bytes} bytes is longer than ${MAX_TXT_BYTES}`);
      return [value, txtStrings(value)];
    }
  }
}

export function validateRecordSet(input: unknown): ValidSet {
  if (typeof input !== 'object' || input === null) throw new DnsRecordError('record set must be an object { name, type, values, ttl? }');
  const raw = input as Partial<Record<keyof DnsRecordSet, unknown>>;
  const name = parseName(raw.name);
  const type = parseRecordType(raw.type);
  const ttl = raw.ttl ?? DEFAULT_TTL;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL) {
    throw new DnsRecordError(`ttl must be an integer from 0 to ${MAX_TTL} seconds; got ${JSON.stringify(raw.ttl)}`);
  }
  if (!Array.isArray(raw.values) || raw.values.length === 0) {
    throw new DnsRecordError(`values must be a non-empty array of strings (use deleteRecords to remove ${type} records at ${name})`);
  }
  if (raw.values.length > MAX_VALUES) throw new DnsRecordError(`a record set holds at most ${MAX_VALUES} values; got ${raw.values.length}`);
  if (type === 'CNAME' && raw.values.length !== 1) {
    throw new DnsRecordError(`a CNAME record set has exactly one value; got ${raw.values.length} for ${name}`);
  }
  const values: string[] = [];
  const data: RecordData[] = [];
  const seen = new Set<string>();
  let total = 0;
  raw.values.forEach((value: unknown, i) => {
    const where = `${type} ${name} values[${i}]`;
    if (typeof value !== 'string') throw new DnsRecordError(`${where} must be a string`);
    const [canonical, parsed] = parseValue(type, value, where);
    // Values are the same when their RDATA is: '2001:db8::1' and '2001:DB8:0::1' are one address.
    const rdata = rdataBytes(type, parsed);
    const key = rdata.toString('hex');
    if (seen.has(key)) throw new DnsRecordError(`${where}: duplicate of an earlier value ('${value}')`);
    seen.add(key);
    total += rdata.length;
    values.push(canonical);
    data.push(parsed);
  });
  if (type === 'CNAME' && values[0] === name) throw new DnsRecordError(`CNAME ${name} must not point to itself`);
  if (total > MAX_SET_BYTES)
    throw new DnsRecordError(`${type} ${name}: the record set is ${total} bytes on the wire; at most ${MAX_SET_BYTES}`);
  return { set: { name, type, values, ttl }, data };
}
