/** What provisioning a hosted host uses (./step.ts): ACM, API Gateway's custom domain names, DNS and the clock. */
import type { Clock } from '#shared/ports/clock';
import type { DnsResolver } from '#shared/ports/dns';
import type { HostCertificates, HostDomainNames } from '#shared/ports/hosting';

export interface HostProvisioningDeps {
  hostCertificates: HostCertificates;
  hostDomains: HostDomainNames;
  dns: Pick<DnsResolver, 'txt' | 'cname'>;
  clock: Clock;
}
