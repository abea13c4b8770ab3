/**
 * A sending domain's link domain (docs/tracking.md, "Link domains"): the host `links.<domain>`, served over
 * HTTPS by the links API with a certificate the service obtains, as a hosted MTA-STS policy host is
 * (../hosting/host-hosting.ts: the same statuses, attempt, certificate and target). Once active, the domain's
 * `link_host` names it and the send worker signs the domain's pixels, click links and unsubscribe links under
 * `https://links.<domain>`; until then, and for every other domain, under LINKS_BASE_URL. Pure.
 */
import * as z from 'zod';
import { hostHostingFields, hostRecords, type HostingRecord } from '../hosting/host-hosting';

/** The link domain's host of a sending domain. */
export const linkHostOf = (domainName: string): string => `links.${domainName.toLowerCase().replace(/\.$/, '')}`;

/** What the last DNS check found of the host's CNAME (absent: not checked yet). */
export const linkDomainDnsSchema = z.object({ checked_at: z.string(), host_cname: z.array(z.string()) });

export const storedLinkDomainSchema = z.object({
  ...hostHostingFields,
  /** `links.<domain>`: the item's key. */
  host: z.string(),
  /** The sending domain's name. */
  domain_name: z.string(),
  dns: linkDomainDnsSchema.nullable().default(null),
});
export type StoredLinkDomain = z.output<typeof storedLinkDomainSchema>;

export type LinkDomainRecord = HostingRecord<'certificate_validation' | 'link_host'>;

/** The records to publish, in the order to publish them: the certificate's validation CNAME, then the host's CNAME. */
export function linkDomainRecords(linkDomain: StoredLinkDomain): LinkDomainRecord[] {
  return hostRecords(linkDomain, { name: linkDomain.host, purpose: 'link_host', found: linkDomain.dns?.host_cname ?? null });
}

/** The answer of GET/PUT /domains/{id}/link-domain. */
export function toPublicLinkDomain(linkDomain: StoredLinkDomain, nextCheckAt: string | null) {
  return {
    object: 'link_domain' as const,
    domain_id: linkDomain.domain_id,
    host: linkDomain.host,
    base_url: `https://${linkDomain.host}`,
    status: linkDomain.status,
    message: linkDomain.message,
    records: linkDomainRecords(linkDomain),
    checked_at: linkDomain.dns?.checked_at ?? null,
    next_check_at: nextCheckAt,
    created_at: linkDomain.created_at,
    updated_at: linkDomain.updated_at,
  };
}
export type PublicLinkDomain = ReturnType<typeof toPublicLinkDomain>;
