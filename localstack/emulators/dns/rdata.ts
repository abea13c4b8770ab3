/** RDATA bytes for the record types the emulator serves (RFC 1035 3.3, RFC 3596). */
import { isIPv4, isIPv6 } from 'node:net';
import { nameToWire } from './message';

export function aRdata(address: string): Buffer {
  if (!isIPv4(address)) throw new RangeError(`'${address}' is not an IPv4 address`);
  return Buffer.from(address.split('.').map(Number));
}

/** 16 bytes of an IPv6 address, including `::` and a trailing dotted IPv4 part. */
export function aaaaRdata(address: string): Buffer {
  if (!isIPv6(address) || address.includes('%')) throw new RangeError(`'${address}' is not an IPv6 address`);
  let text = address.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    const b = aRdata(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${b.readUInt16BE(0).toString(16)}:${b.readUInt16BE(2).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(fill).fill('0'), ...tailGroups];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => {
    out.writeUInt16BE(parseInt(g, 16), i * 2);
  });
  return out;
}

/**
 * One TXT record: the UTF-8 text split into character-strings of at most 255 bytes each, never
 * inside a multi-byte character (so every chunk decodes on its own). Empty text is one empty string.
 */
export function txtRdata(text: string): Buffer {
  const chunks: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const ch of text) {
    const bytes = Buffer.from(ch, 'utf8');
    if (size + bytes.length > 255) {
      chunks.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(bytes);
    size += bytes.length;
  }
  chunks.push(Buffer.concat(current));
  return Buffer.concat(chunks.flatMap((c) => [Buffer.from([c.length]), c]));
}

/** CNAME, NS, PTR: one name. */
export function nameRdata(target: string): Buffer {
  return nameToWire(target);
}

export function mxRdata(preference: number, exchange: string): Buffer {
  const pref = Buffer.alloc(2);
  pref.writeUInt16BE(preference, 0);
  return Buffer.concat([pref, nameToWire(exchange)]);
}

export interface SoaFields {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

export function soaRdata(soa: SoaFields): Buffer {
  const fixed = Buffer.alloc(20);
  [soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum].forEach((v, i) => {
    fixed.writeUInt32BE(v >>> 0, i * 4);
  });
  return Buffer.concat([nameToWire(soa.mname), nameToWire(soa.rname), fixed]);
}
