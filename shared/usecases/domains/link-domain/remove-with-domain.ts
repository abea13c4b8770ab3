/**
 * A deleted domain's link domain is removed with it: marked `removing` (its `link_host` cleared) for the
 * domain-health task to delete its custom domain name and certificate (AWS quotas count them until then) and
 * give its account's place back. Never throws: the domain is deleted either way, and a link domain left behind
 * is logged (an operator can DELETE it through a new domain of the name, or in AWS).
 */
import type { Domain } from '#shared/domain/domains/domain';
import { linkHostOf } from '#shared/domain/domains/link-domain/link-domain';
import { removeWithItsDomain } from '../hosting/delete';
import type { LinkDomainDeps } from './deps';
import { startLinkDomainRemoval } from './manage';

export async function removeLinkDomainWithDomain(
  deps: Pick<LinkDomainDeps, 'linkDomains' | 'clock'>,
  domain: Pick<Domain, 'id' | 'name'>,
): Promise<void> {
  await removeWithItsDomain(domain.id, {
    read: () => deps.linkDomains.get(linkHostOf(domain.name)),
    startRemoval: (linkDomain) => startLinkDomainRemoval(deps, linkDomain),
    failure: "link domain: the deleted domain's link domain was not marked for removal",
  });
}
