/** Record sets as the control API takes and returns them. */

export type DnsRecordType = 'A' | 'AAAA' | 'TXT' | 'CNAME' | 'MX';

export const RECORD_TYPES: readonly DnsRecordType[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT'];

/**
 * All records of one type at one name. Values by type:
 * - A / AAAA: an address (`192.0.2.1`, `2001:db8::1`);
 * - TXT: the text itself, unquoted (split into 255-byte character-strings on the wire);
 * - CNAME: exactly one target name;
 * - MX: `"<priority> <exchange>"`, e.g. `"10 mx.example.com"` (`"0 ."` is a null MX).
 */
export interface DnsRecordSet {
  name: string;
  type: DnsRecordType;
  values: string[];
  /** Seconds; default DEFAULT_TTL. */
  ttl?: number;
}

export const DEFAULT_TTL = 60;

/** What an operation of the control API may read of its HTTP request (./routes.ts). */
export interface ControlRequest {
  query: URLSearchParams;
  /** The JSON body; undefined when it is not JSON (the set is then refused as not an object). */
  json(): Promise<unknown>;
}

/** The control API's answer: an HTTP status and the JSON body. */
export interface ControlReply {
  status: number;
  body: unknown;
}
