/**
 * The DNS servers an emulator that checks DNS (SES's identity verification, ACM's DNS validation) asks about a
 * name, each `host:port`: one server for every name (the DNS emulator's address), a list (as DNS_RESOLVERS
 * lists them), or chosen by name (the local cloud: ../cloud/emulator-dns-servers.ts). Undefined: the system's.
 */
import { Resolver } from 'node:dns/promises';

export type DnsServers = string | readonly string[] | ((name: string) => readonly string[]);

export function serversFor(servers: DnsServers | undefined, name: string): readonly string[] {
  if (servers === undefined) return [];
  if (typeof servers === 'function') return servers(name);
  return typeof servers === 'string' ? [servers] : servers;
}

/** A resolver asking the servers chosen for `name` (no retries: a check that fails is tried again on the next look). */
export function resolverFor(servers: DnsServers | undefined, name: string, timeoutMs: number): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const chosen = serversFor(servers, name);
  if (chosen.length) resolver.setServers([...chosen]);
  return resolver;
}
