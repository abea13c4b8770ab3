/**
 * A deleted domain's hosted MTA-STS policy is removed with it, and so is the policy of a domain that stopped
 * receiving (its subdomain no longer has our MX): marked `removing` for the domain-health task to delete its
 * custom domain name and certificate (AWS quotas count them until then). Never throws: the change is made
 * either way, and a hosting left behind is logged (an operator can DELETE it through a new domain of the
 * name, or in AWS).
 */
import type { Domain } from '#shared/domain/domains/domain';
import { removeWithItsDomain } from '../hosting/delete';
import type { MtaStsHostingDeps } from './deps';
import { startRemoval } from './manage';

export async function removeHostingWithReceiving(
  deps: Pick<MtaStsHostingDeps, 'mtaStsHosting' | 'clock'>,
  domain: Pick<Domain, 'id' | 'inbound_subdomain'>,
): Promise<void> {
  const policyDomain = domain.inbound_subdomain;
  if (!policyDomain) return;
  await removeWithItsDomain(domain.id, {
    read: () => deps.mtaStsHosting.get(policyDomain),
    startRemoval: (hosting) => startRemoval(deps, hosting),
    failure: "mta-sts: the deleted domain's hosted policy was not marked for removal",
  });
}
