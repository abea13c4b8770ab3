/** What link domains use (docs/tracking.md, "Link domains"). */
import type { LinkDomainRepository } from '#shared/adapters/store/link-domains';
import type { HostProvisioningDeps } from '../hosting/deps';

export interface LinkDomainDeps extends HostProvisioningDeps {
  linkDomains: Pick<LinkDomainRepository, 'get' | 'create' | 'save' | 'remove' | 'setLinkHost' | 'pastDue'>;
}
