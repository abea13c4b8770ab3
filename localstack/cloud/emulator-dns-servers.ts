/**
 * Where the local SES and ACM emulators read DNS (identity verification, certificate validation): what the
 * functions read. On AWS, SES, ACM and the service all read the same public DNS; here the functions read the
 * servers DNS_RESOLVERS lists, else the DNS emulator, so the emulators do too
 * (docs/local-cloud/dns.md, "One DNS for the functions and the emulators").
 *
 * The one exception: the names the local cloud publishes itself, as the operator does on AWS (the sandbox
 * sender's DKIM records, the MAIL FROM host's MX: ./cloud.ts, ./services/local-emulators.ts). They live in the DNS
 * emulator, and are read there even with DNS_RESOLVERS set (the operator's own zones, whatever the developer's
 * DNS holds).
 */
import { parseResolvers } from '#shared/adapters/dns/node-dns-resolver';
import type { DnsServers } from '../emulators/dns-servers';

const within = (name: string, zone: string): boolean => name === zone || name.endsWith(`.${zone}`);

export function emulatorDnsServers(dnsResolvers: string | undefined, dnsEmulator: string, ownZones: readonly string[]): DnsServers {
  const servers = parseResolvers(dnsResolvers ?? '');
  if (servers.length === 0) return dnsEmulator;
  const zones = ownZones.map((zone) => zone.toLowerCase().replace(/\.$/, ''));
  return (name) => (zones.some((zone) => within(name.toLowerCase().replace(/\.$/, ''), zone)) ? [dnsEmulator] : servers);
}
