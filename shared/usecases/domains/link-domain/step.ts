/**
 * One step of a link domain (docs/tracking.md, "Link domains"), taken by the domain-health task: the steps of
 * a hosted host (../hosting/step.ts) for `links.<domain>`, mapped to the links API, active once the owner
 * publishes the host's CNAME to its target. Each save that makes it active sets the domain's `link_host` (the
 * send worker signs under it from then on); one that takes it out of active (the CNAME gone, a removal) clears it
 * first, so no email is signed under a host that does not reach the links API.
 */
import { hostCnameFound, type HostingStatus } from '#shared/domain/domains/hosting/host-hosting';
import type { StoredLinkDomain } from '#shared/domain/domains/link-domain/link-domain';
import { runDueSteps, type DueHostingStepsReport } from '../hosting/due-steps';
import { hostStepFrom, lookupValues, type HostedKind, type HostingStepOutcome, type RecordsFound } from '../hosting/step';
import type { LinkDomainDeps } from './deps';

/** Takes the step of the link domain of `host` as stored now. */
export async function takeLinkDomainStep(deps: LinkDomainDeps, host: string): Promise<HostingStepOutcome> {
  const stored = await deps.linkDomains.get(host);
  if (!stored) return 'gone';
  return hostStepFrom(deps, linkDomainKind(deps), stored.hosting);
}

/** The domain-health task's pass over link domains whose next step is due. */
export function runDueLinkDomainSteps(
  deps: LinkDomainDeps,
  options: { budgetMs: number; log(message: string, error: unknown): void },
): Promise<DueHostingStepsReport> {
  const hosts = {
    label: 'link domain',
    pastDue: (now: Date, limit: number) => deps.linkDomains.pastDue(now, limit),
    step: (host: string) => takeLinkDomainStep(deps, host),
  };
  return runDueSteps(deps.clock, hosts, options);
}

/** The save of a link domain, with its domain's `link_host` kept to whether it is active. */
async function saveLinkDomain(
  deps: LinkDomainDeps,
  next: StoredLinkDomain,
  nextStepAt: Date | null,
  previous: StoredLinkDomain,
): Promise<'saved' | 'conflict'> {
  const active = (next.status as HostingStatus) === 'active';
  // Cleared before a save that leaves active (the host may no longer reach the links API), set after one that
  // enters or stays in it; a save from one pending state to another writes nothing on the domain.
  if (!active && (previous.status as HostingStatus) === 'active') await deps.linkDomains.setLinkHost(next.domain_id, null);
  const saved = await deps.linkDomains.save(next, nextStepAt);
  if (saved === 'saved' && active) await deps.linkDomains.setLinkHost(next.domain_id, next.host);
  return saved;
}

function linkDomainKind(deps: LinkDomainDeps): HostedKind<StoredLinkDomain> {
  return {
    api: 'links',
    noun: 'link domain',
    hostOf: (linkDomain) => linkDomain.host,
    save: (linkDomain, nextStepAt, previous) => saveLinkDomain(deps, linkDomain, nextStepAt, previous),
    remove: (linkDomain) => deps.linkDomains.remove(linkDomain),
    checkRecords: (linkDomain, target) => checkRecords(deps, linkDomain, target),
  };
}

/** The owner's record looked up: `active` when the host's CNAME names `target`. */
async function checkRecords(deps: LinkDomainDeps, linkDomain: StoredLinkDomain, target: string): Promise<RecordsFound<StoredLinkDomain>> {
  const dns = { checked_at: deps.clock.now().toISOString(), host_cname: lookupValues(await deps.dns.cname(linkDomain.host)) };
  const live = hostCnameFound({ target }, dns.host_cname);
  const message = live
    ? null
    : `The link domain is served; publish the link_host CNAME (${linkDomain.host} to ${target}) so that the domain's links use it.`;
  return { status: live ? 'active' : 'pending_dns', target, dns, message };
}
