/**
 * The domain's link domain `links.<domain>` (docs/tracking.md, "Link domains"): one it has asked for and that is
 * not active (its certificate or its CNAME not found yet, the CNAME gone, failed) is a low-impact finding, since
 * its emails link to the service's host meanwhile; none (or one being removed) is not applicable. Its own steps
 * look the CNAME up (shared/usecases/domains/link-domain/step.ts): this reads the state they stored. Pure.
 */
import type { HostingStatus } from '../hosting/host-hosting';
import { finding, type HealthFinding } from './finding';

export interface LinkDomainState {
  host: string;
  status: HostingStatus;
  /** What happens next or what to do, as the link domain says it. */
  message: string | null;
}

/** null: no link domain (skipped); [] when active. */
export function evaluateLinkDomainHealth(linkDomain: LinkDomainState | null): HealthFinding[] | null {
  if (!linkDomain || linkDomain.status === 'removing') return null;
  if (linkDomain.status === 'active') return [];
  const next = linkDomain.message ? ` ${linkDomain.message}` : '';
  return [
    finding(
      'link_domain_not_active',
      `The link domain ${linkDomain.host} is ${linkDomain.status}: the domain's emails link to the service's host until it is active.${next}`,
    ),
  ];
}
