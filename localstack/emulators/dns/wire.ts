/**
 * DNS messages to and from bytes (RFC 1035 4.1) with dns-packet, plus what it leaves out:
 * - decoding: dns-packet follows compression pointers (4.1.4) only backwards, so loops end, and
 *   bounds-checks names; record-framing.ts checks RDLENGTH and trailing bytes. Anything malformed
 *   throws DnsFormatError, never anything else;
 * - encoding: names are written uncompressed (allowed: compression is an optimisation). dns-packet writes
 *   a name it cannot encode (a label over 63 bytes, a name over 255) without complaint, so the result is
 *   decoded again and a failure throws RangeError; a question class it has no name for is put back.
 */
import * as dnsPacket from 'dns-packet';
import { type DnsMessage, fromPacket, type Question, toPacket } from './dns-message';
import { DnsFormatError } from './errors';
import { nameCodec, questionCodec } from './packet-codecs';
import { checkRecordFraming } from './record-framing';

const HEADER_SIZE = 12;

export function decodeMessage(buf: Buffer): DnsMessage {
  try {
    const packet = dnsPacket.decode(buf);
    checkRecordFraming(buf);
    return fromPacket(packet);
  } catch (err) {
    if (err instanceof DnsFormatError) throw err;
    throw new DnsFormatError(`malformed DNS message of ${buf.length} bytes: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function encodeMessage(msg: DnsMessage): Buffer {
  const buf = dnsPacket.encode(toPacket(msg));
  restoreUnknownClasses(buf, msg.questions);
  try {
    decodeMessage(buf);
  } catch (err) {
    throw new RangeError(`cannot encode the message: ${err instanceof Error ? err.message : String(err)}`);
  }
  return buf;
}

/** dns-packet reads a class it has no name for as `UNKNOWN_<n>` but writes 0 for it: writes n back. */
function restoreUnknownClasses(buf: Buffer, questions: Question[]): void {
  let pos = HEADER_SIZE;
  for (const question of questions) {
    questionCodec.encode(question as dnsPacket.Question);
    pos += questionCodec.encode.bytes;
    const unknown = /^UNKNOWN_(\d+)$/.exec(question.class);
    if (unknown) buf.writeUInt16BE(Number(unknown[1]) & 0xffff, pos - 2);
  }
}

/**
 * True when the first question's name, as dns-packet gave it in text, writes back as the bytes that
 * were sent. It does not for a '.' or bytes that are not UTF-8 inside a label (the text form has no
 * escapes), nor for a compressed question name: answering such a question would echo another name.
 */
export function questionNameIsExact(packet: Buffer, question: Question): boolean {
  const sent = nameCodec.encode(question.name);
  return packet.subarray(HEADER_SIZE, HEADER_SIZE + sent.length).equals(sent);
}
