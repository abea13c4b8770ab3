/**
 * Domains as the API shows them (GET /domains, GET /domains/{id} and every answer carrying a domain): each with
 * its link domain's records after its own (shared/domain/domains/link-domain/link-domain.ts, linkRecordsOfDomain),
 * read in one BatchGetItem for a whole page.
 */
import { toPublicDomain, type Domain } from '../../domain/domains/domain';
import { linkHostOf, type StoredLinkDomain } from '../../domain/domains/link-domain/link-domain';

export interface PublicDomainsDeps {
  linkDomains: { getMany(hosts: readonly string[]): Promise<Map<string, StoredLinkDomain>> };
}

export type PublicDomain = ReturnType<typeof toPublicDomain>;

/** The domains shown, in their order, each with its link domain's records. */
export async function publicDomains(deps: PublicDomainsDeps, domains: readonly Domain[]): Promise<PublicDomain[]> {
  const linkDomains = await deps.linkDomains.getMany(domains.map((domain) => linkHostOf(domain.name)));
  return domains.map((domain) => toPublicDomain(domain, linkDomains.get(linkHostOf(domain.name)) ?? null));
}

/** One domain shown, with its link domain's records. */
export async function publicDomain(deps: PublicDomainsDeps, domain: Domain): Promise<PublicDomain> {
  const [shown] = await publicDomains(deps, [domain]);
  return shown!;
}

/** A page of domains shown (the list answers' items). */
export async function publicDomainPage<P extends { items: Domain[] }>(
  deps: PublicDomainsDeps,
  page: P,
): Promise<Omit<P, 'items'> & { items: PublicDomain[] }> {
  return { ...page, items: await publicDomains(deps, page.items) };
}
