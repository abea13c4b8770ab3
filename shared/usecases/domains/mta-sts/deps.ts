/** What hosted MTA-STS policies use (docs/deliverability.md, "Hosted MTA-STS policy"). */
import type { Clock } from '#shared/ports/clock';
import type { DnsResolver } from '#shared/ports/dns';
import type { HostCertificates, HostDomainNames } from '#shared/ports/hosting';
import type { MtaStsHostingRepository } from '#shared/adapters/store/mta-sts-hosting';

export interface MtaStsHostingDeps {
  mtaStsHosting: Pick<MtaStsHostingRepository, 'get' | 'create' | 'save' | 'remove'>;
  hostCertificates: HostCertificates;
  hostDomains: HostDomainNames;
  dns: Pick<DnsResolver, 'txt' | 'cname'>;
  clock: Clock;
}
