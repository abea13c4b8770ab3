/**
 * A response that must fit the transport (RFC 1035 4.2.1: 512 bytes over UDP without EDNS; RFC 6891
 * 6.2.5: the client's EDNS size). One that does not fit is sent as header + question (+ OPT) with the TC
 * bit set, so the client retries over TCP (RFC 2181 9).
 */
import type { DnsMessage } from './dns-message';
import { encodeMessage } from './wire';

/** Encodes `msg` within `maxSize` bytes: dropping the answer, authority and additional sections but OPT, with TC set, if needed. Over TCP pass 65535. */
export function encodeResponse(msg: DnsMessage, maxSize: number): Buffer {
  const full = encodeMessage(msg);
  if (full.length <= maxSize) return full;
  const opt = msg.additionals.filter((rr) => rr.type === 'OPT');
  // Header + one question (<= 259 bytes) + OPT (11 bytes) always fits in 512.
  return encodeMessage({ ...msg, tc: true, answers: [], authorities: [], additionals: opt });
}
