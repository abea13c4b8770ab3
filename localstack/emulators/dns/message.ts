/**
 * The DNS message model shared by the decoder and the encoder (RFC 1035 4.1).
 *
 * Names are kept as text, as received (case preserved, so the question goes back exactly as asked),
 * without the trailing dot; '' is the root. Label bytes that would be ambiguous in text ('.', '\',
 * non-printable) are written as `\DDD` escapes. RDATA is kept as bytes, with any compressed names
 * inside it already expanded, so records can be copied into another message unchanged.
 */

export interface Question {
  name: string;
  type: number;
  class: number;
}

export interface ResourceRecord {
  name: string;
  type: number;
  /** For OPT this is the sender's UDP payload size. */
  class: number;
  /** For OPT this carries the extended RCODE, version and flags. */
  ttl: number;
  data: Buffer;
}

export interface DnsMessage {
  id: number;
  /** true in responses. */
  qr: boolean;
  opcode: number;
  /** Authoritative answer. */
  aa: boolean;
  /** Truncated. */
  tc: boolean;
  /** Recursion desired. */
  rd: boolean;
  /** Recursion available. */
  ra: boolean;
  /** The three bits after RA (Z, AD, CD), kept as they came. */
  z: number;
  /** Lower four bits of the RCODE (the rest lives in the OPT record). */
  rcode: number;
  questions: Question[];
  answers: ResourceRecord[];
  authorities: ResourceRecord[];
  additionals: ResourceRecord[];
}

/** Text form of one label read off the wire. */
export function labelToText(label: Buffer): string {
  let out = '';
  for (const byte of label) {
    if (byte === 0x2e || byte === 0x5c || byte <= 0x20 || byte >= 0x7f) out += `\\${String(byte).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

/** Splits a text name into label bytes, undoing `\DDD` and `\c` escapes. */
export function textToLabels(name: string): Buffer[] {
  if (name === '' || name === '.') return [];
  const labels: Buffer[] = [];
  let current: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const ch = name.charCodeAt(i);
    if (ch === 0x5c) {
      const digits = name.slice(i + 1, i + 4);
      if (/^\d{3}$/.test(digits)) {
        current.push(Number(digits) & 0xff);
        i += 3;
      } else if (i + 1 < name.length) {
        current.push(name.charCodeAt(i + 1) & 0xff);
        i += 1;
      }
    } else if (ch === 0x2e) {
      labels.push(Buffer.from(current));
      current = [];
    } else {
      current.push(ch & 0xff);
    }
  }
  // A trailing dot leaves an empty last label: it means "absolute", not an extra label.
  if (current.length > 0 || !name.endsWith('.')) labels.push(Buffer.from(current));
  return labels;
}

/** Uncompressed wire form of a text name (labels, then the zero-length root label). */
export function nameToWire(name: string): Buffer {
  const parts: Buffer[] = [];
  for (const label of textToLabels(name)) {
    if (label.length === 0 || label.length > 63) throw new RangeError(`cannot encode name '${name}': label of ${label.length} bytes`);
    parts.push(Buffer.from([label.length]), label);
  }
  parts.push(Buffer.from([0]));
  const wire = Buffer.concat(parts);
  if (wire.length > 255) throw new RangeError(`cannot encode name '${name}': ${wire.length} bytes on the wire (max 255)`);
  return wire;
}
