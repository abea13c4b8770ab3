/** DNS protocol numbers and limits (RFC 1035, RFC 6891 for EDNS), and type names as dns-packet spells them. */

export const OPCODE_QUERY = 0;

export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  /** Extended RCODE 16 (needs OPT): upper 8 bits go in the OPT record's extended RCODE. */
  BADVERS: 16,
} as const;

/**
 * Question types answered NOTIMP: zone transfers (AXFR 252, RFC 5936; IXFR 251, RFC 1995) and MAILB 253 /
 * MAILA 254 (RFC 1035 3.2.3), which dns-packet has no names for and reads as UNKNOWN_<n>.
 */
export const NOT_IMPLEMENTED_TYPES: ReadonlySet<string> = new Set(['AXFR', 'IXFR', 'UNKNOWN_253', 'UNKNOWN_254']);

/** Largest UDP answer for a query without EDNS (RFC 1035 4.2.1). */
export const CLASSIC_UDP_SIZE = 512;
/** UDP payload size the emulator advertises in its OPT record, and the most it sends over UDP. */
export const EDNS_UDP_SIZE = 1232;
/** A DNS message over TCP is prefixed with a 16-bit length. */
export const MAX_MESSAGE_SIZE = 65535;

/** A type's name for logs: dns-packet's name, or `TYPE<n>` (RFC 3597 5) for one it reads as UNKNOWN_<n>. */
export function typeName(type: string): string {
  return type.startsWith('UNKNOWN_') ? `TYPE${type.slice('UNKNOWN_'.length)}` : type;
}
