/**
 * Validation of record sets given to the control API. Returns the set in canonical form (name lower
 * case without trailing dot, ttl filled in, names inside values canonical) with the RDATA of each
 * value, or throws DnsRecordError saying what is wrong.
 */
import { DnsRecordError } from './errors';
import { parseName } from './names';
import { aaaaRdata, aRdata, mxRdata, nameRdata, txtRdata } from './rdata';
import { DEFAULT_TTL, RECORD_TYPES, type DnsRecordSet, type DnsRecordType } from './types';

/** Longest TXT value accepted, in UTF-8 bytes (a 4096-bit DKIM key record is about 750). */
export const MAX_TXT_BYTES = 4096;
/** Most values in one record set. */
export const MAX_VALUES = 100;
/** Most RDATA bytes in one record set, so that a full answer always fits a TCP message. */
export const MAX_SET_BYTES = 32768;
const MAX_TTL = 2147483647;

export interface ValidSet {
  set: DnsRecordSet & { ttl: number };
  rdata: Buffer[];
}

export function parseRecordType(input: unknown): DnsRecordType {
  const type = typeof input === 'string' ? input.toUpperCase() : input;
  if (!RECORD_TYPES.includes(type as DnsRecordType)) {
    throw new DnsRecordError(`type must be one of ${RECORD_TYPES.join(', ')}; got ${JSON.stringify(input)}`);
  }
  return type as DnsRecordType;
}

function parseValue(type: DnsRecordType, value: string, where: string): [string, Buffer] {
  switch (type) {
    case 'A':
      try {
        return [value, aRdata(value)];
      } catch {
        throw new DnsRecordError(`${where}: '${value}' is not an IPv4 address`);
      }
    case 'AAAA':
      try {
        return [value.toLowerCase(), aaaaRdata(value)];
      } catch {
        throw new DnsRecordError(`${where}: '${value}' is not an IPv6 address`);
      }
    case 'CNAME': {
      const target = parseName(value, `${where} (CNAME target)`);
      return [target, nameRdata(target)];
    }
    case 'MX': {
      const m = /^(\d{1,5})\s+(\S+)$/.exec(value.trim());
      const preference = Number(m?.[1]);
      if (!m?.[2] || preference > 65535) {
        throw new DnsRecordError(`${where}: MX value must be "<priority 0-65535> <exchange>", e.g. "10 mx.example.com"; got '${value}'`);
      }
      const exchange = m[2] === '.' ? '' : parseName(m[2], `${where} (MX exchange)`);
      return [`${preference} ${exchange === '' ? '.' : exchange}`, mxRdata(preference, exchange)];
    }
    case 'TXT': {
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes > MAX_TXT_BYTES) throw new DnsRecordError(`${where}: TXT value of ${bytes} bytes is longer than ${MAX_TXT_BYTES}`);
      return [value, txtRdata(value)];
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
  const rdata: Buffer[] = [];
  const seen = new Set<string>();
  raw.values.forEach((value: unknown, i) => {
    const where = `${type} ${name} values[${i}]`;
    if (typeof value !== 'string') throw new DnsRecordError(`${where} must be a string`);
    const [canonical, data] = parseValue(type, value, where);
    const key = data.toString('hex');
    if (seen.has(key)) throw new DnsRecordError(`${where}: duplicate of an earlier value ('${value}')`);
    seen.add(key);
    values.push(canonical);
    rdata.push(data);
  });
  if (type === 'CNAME' && values[0] === name) throw new DnsRecordError(`CNAME ${name} must not point to itself`);
  const total = rdata.reduce((sum, d) => sum + d.length, 0);
  if (total > MAX_SET_BYTES)
    throw new DnsRecordError(`${type} ${name}: the record set is ${total} bytes on the wire; at most ${MAX_SET_BYTES}`);
  return { set: { name, type, values, ttl }, rdata };
}
