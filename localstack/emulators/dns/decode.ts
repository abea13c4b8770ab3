/**
 * DNS message decoder (RFC 1035 4.1). Follows compression pointers (4.1.4) in owner names and in the
 * RDATA of the types that may carry compressed names, expanding the latter so RDATA stands alone.
 * Everything is bounds-checked; anything malformed throws DnsFormatError, never anything else.
 */
import { TYPE } from './constants';
import { DnsFormatError } from './errors';
import { labelToText, type DnsMessage, type Question, type ResourceRecord } from './message';

const HEADER_SIZE = 12;
/** A name can have at most 127 labels; more pointer hops than that is a loop. */
const MAX_POINTER_HOPS = 127;

interface NameRead {
  labels: Buffer[];
  /** Offset just after the name where it was found (after the first pointer, if any). */
  end: number;
}

function fail(message: string): never {
  throw new DnsFormatError(message);
}

function u16(buf: Buffer, offset: number): number {
  if (offset + 2 > buf.length) fail(`message ends inside a 16-bit field at offset ${offset}`);
  return buf.readUInt16BE(offset);
}

function u32(buf: Buffer, offset: number): number {
  if (offset + 4 > buf.length) fail(`message ends inside a 32-bit field at offset ${offset}`);
  return buf.readUInt32BE(offset);
}

/** Reads a possibly compressed name. Pointers must point backwards, which also rules out loops. */
export function readName(buf: Buffer, offset: number): NameRead {
  const labels: Buffer[] = [];
  let pos = offset;
  let end: number | undefined;
  let wireLength = 1;
  let hops = 0;
  for (;;) {
    if (pos >= buf.length) fail(`name at offset ${offset} runs past the end of the message`);
    const len = buf[pos] ?? 0;
    if (len === 0) {
      end ??= pos + 1;
      break;
    }
    const kind = len & 0xc0;
    if (kind === 0xc0) {
      const target = u16(buf, pos) & 0x3fff;
      if (target >= pos) fail(`compression pointer at offset ${pos} does not point backwards`);
      if (++hops > MAX_POINTER_HOPS) fail(`too many compression pointers in the name at offset ${offset}`);
      end ??= pos + 2;
      pos = target;
      continue;
    }
    if (kind !== 0) fail(`unsupported label type 0x${kind.toString(16)} at offset ${pos}`);
    if (pos + 1 + len > buf.length) fail(`label at offset ${pos} runs past the end of the message`);
    wireLength += 1 + len;
    if (wireLength > 255) fail(`name at offset ${offset} is longer than 255 bytes`);
    labels.push(buf.subarray(pos + 1, pos + 1 + len));
    pos += 1 + len;
  }
  return { labels, end };
}

function labelsToText(labels: Buffer[]): string {
  return labels.map(labelToText).join('.');
}

function labelsToWire(labels: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const label of labels) parts.push(Buffer.from([label.length]), label);
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** RDATA with its names expanded, for the types whose RDATA may contain compressed names. */
function readRdata(buf: Buffer, type: number, start: number, length: number): Buffer {
  const end = start + length;
  const raw = buf.subarray(start, end);
  // Layout: fixed bytes before the names, number of names, fixed bytes after them.
  let layout: [number, number, number] | undefined;
  switch (type) {
    case TYPE.NS:
    case TYPE.CNAME:
    case TYPE.PTR:
    case TYPE.DNAME:
      layout = [0, 1, 0];
      break;
    case TYPE.MX:
      layout = [2, 1, 0];
      break;
    case TYPE.SRV:
      layout = [6, 1, 0];
      break;
    case TYPE.SOA:
      layout = [0, 2, 20];
      break;
    default:
      return Buffer.from(raw);
  }
  const [before, names, after] = layout;
  if (before > length) fail(`RDATA of type ${type} is too short`);
  const parts: Buffer[] = [Buffer.from(raw.subarray(0, before))];
  let pos = start + before;
  for (let i = 0; i < names; i++) {
    const read = readName(buf, pos);
    if (read.end > end) fail(`a name in the RDATA of type ${type} runs past the record`);
    parts.push(labelsToWire(read.labels));
    pos = read.end;
  }
  if (pos + after !== end) fail(`RDATA of type ${type} has ${end - pos} bytes after its names; expected ${after}`);
  parts.push(Buffer.from(buf.subarray(pos, end)));
  return Buffer.concat(parts);
}

function readQuestion(buf: Buffer, offset: number): [Question, number] {
  const name = readName(buf, offset);
  const type = u16(buf, name.end);
  const cls = u16(buf, name.end + 2);
  return [{ name: labelsToText(name.labels), type, class: cls }, name.end + 4];
}

function readRecord(buf: Buffer, offset: number): [ResourceRecord, number] {
  const name = readName(buf, offset);
  const type = u16(buf, name.end);
  const cls = u16(buf, name.end + 2);
  const ttl = u32(buf, name.end + 4);
  const length = u16(buf, name.end + 8);
  const start = name.end + 10;
  if (start + length > buf.length) fail(`record at offset ${offset} has RDATA running past the end of the message`);
  return [{ name: labelsToText(name.labels), type, class: cls, ttl, data: readRdata(buf, type, start, length) }, start + length];
}

/** Decodes a whole message. Trailing bytes after the last section are an error. */
export function decodeMessage(buf: Buffer): DnsMessage {
  if (buf.length < HEADER_SIZE) fail(`message of ${buf.length} bytes is shorter than a DNS header`);
  const flags = buf.readUInt16BE(2);
  const counts = [buf.readUInt16BE(4), buf.readUInt16BE(6), buf.readUInt16BE(8), buf.readUInt16BE(10)] as const;
  let pos = HEADER_SIZE;
  const questions: Question[] = [];
  for (let i = 0; i < counts[0]; i++) {
    const [q, next] = readQuestion(buf, pos);
    questions.push(q);
    pos = next;
  }
  const sections: ResourceRecord[][] = [[], [], []];
  for (let s = 0; s < 3; s++) {
    for (let i = 0; i < (counts[s + 1] ?? 0); i++) {
      const [rr, next] = readRecord(buf, pos);
      sections[s]?.push(rr);
      pos = next;
    }
  }
  if (pos !== buf.length) fail(`${buf.length - pos} unexpected bytes after the last record`);
  return {
    id: buf.readUInt16BE(0),
    qr: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    aa: (flags & 0x0400) !== 0,
    tc: (flags & 0x0200) !== 0,
    rd: (flags & 0x0100) !== 0,
    ra: (flags & 0x0080) !== 0,
    z: (flags >> 4) & 0x7,
    rcode: flags & 0xf,
    questions,
    answers: sections[0] ?? [],
    authorities: sections[1] ?? [],
    additionals: sections[2] ?? [],
  };
}
