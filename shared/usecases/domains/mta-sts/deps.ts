/** What hosted MTA-STS policies use (docs/deliverability.md, "Hosted MTA-STS policy"). */
import type { MtaStsHostingRepository } from '#shared/adapters/store/mta-sts-hosting';
import type { HostProvisioningDeps } from '../hosting/deps';

export interface MtaStsHostingDeps extends HostProvisioningDeps {
  mtaStsHosting: Pick<MtaStsHostingRepository, 'get' | 'create' | 'save' | 'remove'>;
}
