/**
 * A domain's own link domain: the item at `links.<domain>` when it names this domain (another domain's of the same
 * name, one deleted and added again, is not this one's). What GET/PUT/DELETE (./manage.ts) and the domain's health
 * check (../health.ts: an eventually consistent read is enough there) read.
 */
import type { LinkDomainRepository } from '#shared/adapters/store/link-domains';
import type { Domain } from '#shared/domain/domains/domain';
import { linkHostOf } from '#shared/domain/domains/link-domain/link-domain';

export async function linkDomainOf(
  deps: { linkDomains: Pick<LinkDomainRepository, 'get'> },
  domain: Pick<Domain, 'id' | 'name'>,
  options: { consistent: boolean } = { consistent: true },
) {
  const stored = await deps.linkDomains.get(linkHostOf(domain.name), options);
  return stored?.hosting.domain_id === domain.id ? stored : null;
}
