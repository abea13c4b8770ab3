/** Upstream resolver addresses: `host:port`, `[v6]:port`, or a bare host (port 53). */
import { isIP } from 'node:net';

export interface UpstreamAddress {
  host: string;
  port: number;
  family: 4 | 6;
}

export function parseUpstream(text: string): UpstreamAddress {
  const trimmed = text.trim();
  let host: string;
  let port = 53;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  if (bracketed?.[1]) {
    host = bracketed[1];
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if (isIP(trimmed) === 6) {
    host = trimmed;
  } else {
    const m = /^([^:]+)(?::(\d+))?$/.exec(trimmed);
    if (!m?.[1]) throw new Error(`invalid upstream DNS server '${text}': expected host:port`);
    host = m[1];
    if (m[2]) port = Number(m[2]);
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`invalid upstream DNS server '${text}': bad port`);
  if (isIP(host) === 0) throw new Error(`invalid upstream DNS server '${text}': the host must be an IP address`);
  return { host, port, family: isIP(host) === 6 ? 6 : 4 };
}

export function formatAddress(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
