/** Domains (docs/domains.md): the domains, the records they are told to publish, and stored DNS host credentials (DNS apply). */
import { DnsProviderRepository } from '../adapters/store/dns-providers';
import { DomainRepository } from '../adapters/store/domains/repository';
import type { Platform } from './platform';

export function buildDomains({ config, table }: Pick<Platform, 'config' | 'table'>) {
  return {
    domains: new DomainRepository(table, config.recovery),
    dnsSettings: { returnPathHost: config.returnPathHost, spfInclude: config.spfInclude, inboundMxHost: config.inboundMxHost },
    /** DNS apply (docs/domains.md): stored DNS host credentials (sealed; the adapters are ./dns-apply.ts). */
    dnsProviders: new DnsProviderRepository(table),
  };
}

export type DomainServices = ReturnType<typeof buildDomains>;
