/**
 * A deleted domain's link domain is removed with it: marked `removing` (its `link_host` cleared) for the
 * domain-health task to delete its custom domain name and certificate (AWS quotas count them until then) and
 * give its account's place back. Never throws: the domain is deleted either way, and a link domain left behind
 * is logged (an operator can DELETE it through a new domain of the name, or in AWS).
 */
import type { Domain } from '#shared/domain/domains/domain';
import { linkHostOf } from '#shared/domain/domains/link-domain/link-domain';
import { logError } from '#shared/lib/log';
import type { LinkDomainDeps } from './deps';
import { startLinkDomainRemoval } from './manage';

const ATTEMPTS = 3;

export async function removeLinkDomainWithDomain(
  deps: Pick<LinkDomainDeps, 'linkDomains' | 'clock'>,
  domain: Pick<Domain, 'id' | 'name'>,
): Promise<void> {
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const stored = await deps.linkDomains.get(linkHostOf(domain.name));
      if (!stored || stored.hosting.domain_id !== domain.id || stored.hosting.status === 'removing') return;
      if (await startLinkDomainRemoval(deps, stored.hosting)) return;
    }
  } catch (error) {
    logError("link domain: the deleted domain's link domain was not marked for removal", error, { domain_id: domain.id });
  }
}
