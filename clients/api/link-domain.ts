/**
 * A domain's link domain `links.<domain>` as the clients read, ask for and stop it (GET, PUT and DELETE
 * /domains/{id}/link-domain; docs/tracking.md, "Link domains"): the calls, the answers' types and the words both
 * the CLI and the MCP server use to sum them up. The types come from the API's own records (type-only imports:
 * nothing of shared/ runs in the clients).
 */
import type { PublicLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import type { ApiClient } from './client';

export type LinkDomain = PublicLinkDomain;
export type LinkDomainRecord = LinkDomain['records'][number];
export interface LinkDomainDeleted {
  object: 'link_domain';
  domain_id: string;
  deleted: true;
}

/** What each record is for, as both clients explain it. */
export const LINK_DOMAIN_RECORD_PURPOSES: Readonly<Record<LinkDomainRecord['purpose'], string>> = {
  certificate_validation:
    "ACM's DNS validation of the link domain's certificate (publish it first: the certificate is issued once it is found)",
  link_host:
    "points links.<domain> at the host that serves the links (listed once the certificate is issued; the domain's emails link to it once it is found)",
};

const pathOf = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/link-domain`;

/** GET /domains/{id}/link-domain: the link domain (404 not_found when the domain has none). */
export function getLinkDomain(api: ApiClient, domainId: string): Promise<LinkDomain> {
  return api.get<LinkDomain>(pathOf(domainId));
}

/** PUT /domains/{id}/link-domain (no body): ask for it, start a failed one over, or check a live one now. */
export function setUpLinkDomain(api: ApiClient, domainId: string): Promise<LinkDomain> {
  return api.request<LinkDomain>('PUT', pathOf(domainId));
}

/** DELETE /domains/{id}/link-domain: stop it (the domain's links use the service's link host again at once). */
export function stopLinkDomain(api: ApiClient, domainId: string): Promise<LinkDomainDeleted> {
  return api.delete<LinkDomainDeleted>(pathOf(domainId));
}

/** "links.example.com (dom_01): pending_certificate" */
export function linkDomainLine(linkDomain: LinkDomain): string {
  return `${linkDomain.host} (${linkDomain.domain_id}): ${linkDomain.status}`;
}
