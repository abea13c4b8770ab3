/** What hosted MTA-STS policies use (docs/deliverability.md, "Hosted MTA-STS policy"). */
import type { Clock, DnsResolver, HostCertificates, HostDomainNames } from '../../../ports';
import type { MtaStsHostingRepository } from '../../../adapters/store/mta-sts-hosting';

export interface MtaStsHostingDeps {
  mtaStsHosting: Pick<MtaStsHostingRepository, 'get' | 'create' | 'save' | 'remove'>;
  hostCertificates: HostCertificates;
  hostDomains: HostDomainNames;
  dns: Pick<DnsResolver, 'txt' | 'cname'>;
  clock: Clock;
}
