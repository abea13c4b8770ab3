/**
 * Link domains (docs/tracking.md, "Link domains"): the stored `links.<domain>` hosts (the domains group reads
 * and changes them; the domain-health task steps them). Their certificates and custom domain names are
 * ./mta-sts-provisioning.ts's, shared with hosted MTA-STS policies.
 */
import { LinkDomainRepository } from '../adapters/store/link-domains';
import type { Platform } from './platform';

export function buildLinkDomains({ table }: Pick<Platform, 'table'>) {
  return { linkDomains: new LinkDomainRepository(table) };
}

export type LinkDomainServices = ReturnType<typeof buildLinkDomains>;
