/**
 * Ports: DNS lookups (node:dns over the configured resolvers: shared/adapters/dns/node-dns-resolver.ts), for
 * domain verification and health, and for webhook URL checks.
 */
import type { Lookup } from '../domain/domains/evaluate';

/** DNS lookups for domain verification. */
export interface DnsResolver {
  txt(name: string): Promise<Lookup>;
  /** Raw TXT chunks (for DKIM verification); throws when the lookup fails. */
  txtChunks(name: string): Promise<string[][]>;
  cname(name: string): Promise<Lookup>;
  mx(name: string): Promise<Lookup>;
}

/** Addresses of a host name, through the same resolvers as DnsResolver (webhook URL checks). */
export interface HostResolver {
  /**
   * The host's A and AAAA addresses; an IP literal resolves to itself. [] when the name has none
   * (NXDOMAIN, NODATA); throws when the lookup itself failed (timeout, SERVFAIL).
   */
  resolveAddresses(host: string): Promise<string[]>;
}
