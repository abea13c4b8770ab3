/** DNS apply (docs/domains.md): the adapter for a DNS host (Route 53 or Cloudflare) and its credentials, one per request. */
import type { Config } from '../config/config';
import type { DnsHostRequest } from '../domain/domains/dns-apply';
import { createDnsHost, type DnsHostClients } from '../adapters/dns-hosts';

export function buildDnsApply(config: Config) {
  const clients: DnsHostClients = {};
  return { dnsHost: (request: DnsHostRequest) => createDnsHost(request, config, clients) };
}

export type DnsApplyServices = ReturnType<typeof buildDnsApply>;
