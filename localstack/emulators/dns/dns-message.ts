/**
 * The DNS message the emulator works with (RFC 1035 4.1): dns-packet's questions and records, and the
 * header with its flags as named fields (dns-packet keeps them as one number, `flags`).
 *
 * Names are text as dns-packet reads them: case preserved (so the question goes back exactly as asked),
 * no trailing dot, '.' for the root when read ('' is written as the root too). Types and classes are
 * dns-packet's names ('TXT', 'IN'); one it has no name for reads as `UNKNOWN_<n>`. RDATA is dns-packet's
 * decoded form, compressed names expanded, so records can be copied into another message unchanged.
 */
import * as dnsPacket from 'dns-packet';

export interface Question {
  name: string;
  /** 'A', 'TXT', ... or `UNKNOWN_<n>`. */
  type: string;
  /** 'IN', 'CH', 'ANY', ... or `UNKNOWN_<n>`. */
  class: string;
}

/** A record; OPT (EDNS, RFC 6891) carries udpPayloadSize, extendedRcode, ednsVersion, flags and options instead. */
export type ResourceRecord = dnsPacket.Answer;

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

/** The header's second 16 bits without QR (RFC 1035 4.1.1): dns-packet's `flags`. */
function headerFlags(msg: DnsMessage): number {
  return (
    ((msg.opcode & 0xf) << 11) |
    (msg.aa ? dnsPacket.AUTHORITATIVE_ANSWER : 0) |
    (msg.tc ? dnsPacket.TRUNCATED_RESPONSE : 0) |
    (msg.rd ? dnsPacket.RECURSION_DESIRED : 0) |
    (msg.ra ? dnsPacket.RECURSION_AVAILABLE : 0) |
    ((msg.z & 0x7) << 4) |
    (msg.rcode & 0xf)
  );
}

export function toPacket(msg: DnsMessage): dnsPacket.Packet {
  return {
    id: msg.id & 0xffff,
    type: msg.qr ? 'response' : 'query',
    flags: headerFlags(msg),
    questions: msg.questions as dnsPacket.Question[],
    answers: msg.answers,
    authorities: msg.authorities,
    additionals: msg.additionals,
  };
}

export function fromPacket(packet: dnsPacket.DecodedPacket): DnsMessage {
  const flags = packet.flags ?? 0;
  return {
    id: packet.id ?? 0,
    qr: packet.flag_qr,
    opcode: (flags >> 11) & 0xf,
    aa: packet.flag_aa,
    tc: packet.flag_tc,
    rd: packet.flag_rd,
    ra: packet.flag_ra,
    z: (flags >> 4) & 0x7,
    rcode: flags & 0xf,
    questions: (packet.questions ?? []) as Question[],
    answers: packet.answers ?? [],
    authorities: packet.authorities ?? [],
    additionals: packet.additionals ?? [],
  };
}
