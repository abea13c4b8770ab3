/** DNS protocol numbers (RFC 1035, RFC 3596 for AAAA, RFC 6891 for OPT). */

export const TYPE = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  MX: 15,
  TXT: 16,
  AAAA: 28,
  SRV: 33,
  DNAME: 39,
  OPT: 41,
  IXFR: 251,
  AXFR: 252,
  MAILB: 253,
  MAILA: 254,
  ANY: 255,
} as const;

export const CLASS_IN = 1;

export const OPCODE_QUERY = 0;

export const RCODE = {
  NOERROR: 0,
  FORMERR: 1,
  SERVFAIL: 2,
  NXDOMAIN: 3,
  NOTIMP: 4,
  REFUSED: 5,
  /** Extended RCODE 16 (needs OPT): upper 8 bits go in the OPT record's TTL. */
  BADVERS: 16,
} as const;

/** Largest UDP answer for a query without EDNS (RFC 1035 4.2.1). */
export const CLASSIC_UDP_SIZE = 512;
/** UDP payload size the emulator advertises in its OPT record, and the most it sends over UDP. */
export const EDNS_UDP_SIZE = 1232;
/** A DNS message over TCP is prefixed with a 16-bit length. */
export const MAX_MESSAGE_SIZE = 65535;
