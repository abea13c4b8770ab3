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

/** The purposes of the link domain's records in its sending domain's `records` (after the domain's own). */
export const DOMAIN_LINK_RECORD_PURPOSES = ['link_certificate_validation', 'link_host'] as const;

/** A link domain's record as its sending domain's `records` list it (the shape of the domain's own records). */
export interface DomainLinkRecord {
  purpose: (typeof DOMAIN_LINK_RECORD_PURPOSES)[number];
  type: 'CNAME';
  name: string;
  value: string;
  /** MX records only. */
  priority?: never;
  /** Always false: the domain is verified without them; its links use the link domain only once both are found. */
  required: false;
  status: 'pending' | 'verified';
  found?: string[];
  message?: string;
}

/**
 * The records of the domain's link domain as GET /domains/{id} lists them, after the domain's own: its
 * certificate's validation CNAME, then the `links.<domain>` CNAME, each as soon as it is known (the same records
 * as GET /domains/{id}/link-domain, under purposes of their own). None when it has no link domain, while it is
 * being removed, or when the stored one is another domain's (a deleted domain of the same name, still being removed).
 */
export function linkRecordsOfDomain(domainId: string, linkDomain: StoredLinkDomain | null): DomainLinkRecord[] {
  if (!linkDomain || linkDomain.domain_id !== domainId || linkDomain.status === 'removing') return [];
  return linkDomainRecords(linkDomain).map((record): DomainLinkRecord => {
    const validation = record.purpose === 'certificate_validation';
    const pending = validation
      ? `Publish it for the certificate of ${linkDomain.host} to be issued (GET /domains/${domainId}/link-domain shows each step).`
      : `Publish it for the domain's tracked and unsubscribe links to use https://${linkDomain.host}.`;
    return {
      purpose: validation ? 'link_certificate_validation' : 'link_host',
      type: 'CNAME',
      name: record.name,
      value: record.value,
      required: false,
      status: record.status,
      ...(record.found ? { found: record.found } : {}),
      ...(record.status === 'pending' ? { message: pending } : {}),
    };
  });
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
