/**
 * A deleted domain's hosted MTA-STS policy is removed with it, and so is the policy of a domain that stopped
 * receiving (its subdomain no longer has our MX): marked `removing` for the domain-health task to delete its
 * custom domain name and certificate (AWS quotas count them until then). Never throws: the change is made
 * either way, and a hosting left behind is logged (an operator can DELETE it through a new domain of the
 * name, or in AWS).
 */
import type { Domain } from '#shared/domain/domains/domain';
import { logError } from '#shared/lib/log';
import type { MtaStsHostingDeps } from './deps';
import { startRemoval } from './manage';

const ATTEMPTS = 3;

export async function removeHostingWithReceiving(
  deps: Pick<MtaStsHostingDeps, 'mtaStsHosting' | 'clock'>,
  domain: Pick<Domain, 'id' | 'inbound_subdomain'>,
): Promise<void> {
  if (!domain.inbound_subdomain) return;
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const stored = await deps.mtaStsHosting.get(domain.inbound_subdomain);
      if (!stored || stored.hosting.domain_id !== domain.id || stored.hosting.status === 'removing') return;
      if (await startRemoval(deps, stored.hosting)) return;
    }
  } catch (error) {
    logError("mta-sts: the deleted domain's hosted policy was not marked for removal", error, { domain_id: domain.id });
  }
}
