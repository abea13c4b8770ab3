/**
 * DNS message encoder (RFC 1035 4.1). Names are written uncompressed (allowed: compression is an
 * optimisation), RDATA as stored. `encodeResponse` applies the UDP size limit: an answer that does
 * not fit is sent as header + question (+ OPT) with the TC bit set, so the client retries over TCP.
 */
import { TYPE } from './constants';
import { nameToWire, type DnsMessage, type Question, type ResourceRecord } from './message';

function header(msg: DnsMessage): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(msg.id & 0xffff, 0);
  const flags =
    (msg.qr ? 0x8000 : 0) |
    ((msg.opcode & 0xf) << 11) |
    (msg.aa ? 0x0400 : 0) |
    (msg.tc ? 0x0200 : 0) |
    (msg.rd ? 0x0100 : 0) |
    (msg.ra ? 0x0080 : 0) |
    ((msg.z & 0x7) << 4) |
    (msg.rcode & 0xf);
  h.writeUInt16BE(flags, 2);
  h.writeUInt16BE(msg.questions.length, 4);
  h.writeUInt16BE(msg.answers.length, 6);
  h.writeUInt16BE(msg.authorities.length, 8);
  h.writeUInt16BE(msg.additionals.length, 10);
  return h;
}

function question(q: Question): Buffer {
  const fixed = Buffer.alloc(4);
  fixed.writeUInt16BE(q.type, 0);
  fixed.writeUInt16BE(q.class, 2);
  return Buffer.concat([nameToWire(q.name), fixed]);
}

function record(rr: ResourceRecord): Buffer {
  if (rr.data.length > 0xffff) throw new RangeError(`RDATA of ${rr.data.length} bytes does not fit a record`);
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(rr.type, 0);
  fixed.writeUInt16BE(rr.class, 2);
  fixed.writeUInt32BE(rr.ttl >>> 0, 4);
  fixed.writeUInt16BE(rr.data.length, 8);
  return Buffer.concat([nameToWire(rr.name), fixed, rr.data]);
}

export function encodeMessage(msg: DnsMessage): Buffer {
  const parts = [header(msg), ...msg.questions.map(question)];
  for (const rr of [...msg.answers, ...msg.authorities, ...msg.additionals]) parts.push(record(rr));
  return Buffer.concat(parts);
}

/**
 * Encodes a response that must fit in `maxSize` bytes. If it does not, the answer, authority and
 * additional sections are dropped (the OPT record is kept) and TC is set. Over TCP pass 65535.
 */
export function encodeResponse(msg: DnsMessage, maxSize: number): Buffer {
  const full = encodeMessage(msg);
  if (full.length <= maxSize) return full;
  const opt = msg.additionals.filter((rr) => rr.type === TYPE.OPT);
  // Header + one question (<= 259 bytes) + OPT (11 bytes) always fits in 512.
  return encodeMessage({ ...msg, tc: true, answers: [], authorities: [], additionals: opt });
}
