/**
 * GET, PUT and DELETE /domains/{id}/link-domain (docs/tracking.md, "Link domains"): the link domain
 * `links.<domain>` of a verified sending domain. PUT stores it with its next step due now (again after a
 * failure: a new attempt; again on a live one: checked now); DELETE clears the domain's `link_host` at once (its links go back to
 * LINKS_BASE_URL) and marks it `removing`, due now. The steps (ACM, API Gateway, DNS) are the domain-health
 * task's, within a minute (./step.ts). Writes are conditional on the version read. A new link domain takes a
 * place of the account's bound (its plan's `linkDomains`) in the same transaction as its creation (403
 * plan_limit at the bound), given back when its removal completes.
 */
import type { Domain } from '#shared/domain/domains/domain';
import { firstAttempt, newAttempt, removingOf } from '#shared/domain/domains/hosting/host-hosting';
import {
  linkHostOf,
  toPublicLinkDomain,
  type PublicLinkDomain,
  type StoredLinkDomain,
} from '#shared/domain/domains/link-domain/link-domain';
import { PLANS } from '#shared/domain/accounts/plans';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors';
import type { DomainCrud } from '#shared/adapters/store/domains/crud';
import type { Principal } from '../../access/principal';
import { owned } from '../deps';
import { markForRemoval } from '../hosting/delete';
import { planBoundError, type HostedKindBound } from '../hosting/plan-bound';
import type { LinkDomainDeps } from './deps';
import { linkDomainOf } from './own';

export interface ManageLinkDomainDeps extends Pick<LinkDomainDeps, 'linkDomains' | 'clock'> {
  domains: Pick<DomainCrud, 'get'>;
  /** Where an account upgrades its plan (a plan_limit error's `upgrade_url`). */
  dashboardUrl: string;
}

const LINK_DOMAINS: HostedKindBound = { limit: 'linkDomains', resource: 'link_domains', one: 'link domain', many: 'link domains' };

/** Writes lost to concurrent ones before the request answers 409. */
const ATTEMPTS = 5;

const STARTING = 'Requesting the certificate of the link domain: its validation record is listed here within a minute.';

function changedMeanwhile(domainId: string): ConflictError {
  return new ConflictError(
    `The link domain of domain ${domainId} kept changing while this request ran; nothing was changed by it.`,
    'conflict',
    {
      details: { domain_id: domainId },
      hint: 'Send the request again.',
    },
  );
}

const notHosted = (domainId: string) => new NotFoundError('Link domain', domainId);

/** The domain's link domain as shown (the domain already read and visible); null when none (or being removed). */
export async function linkDomainViewOf(deps: Pick<ManageLinkDomainDeps, 'linkDomains'>, domain: Domain): Promise<PublicLinkDomain | null> {
  const shown = (await linkDomainOf(deps, domain)) ?? undefined;
  if (shown?.hosting.status === 'removing') return null;
  return shown ? toPublicLinkDomain(shown.hosting, shown.nextStepAt) : null;
}

/** GET: 404 when the domain has none (or it is being removed). */
export async function getLinkDomain(deps: ManageLinkDomainDeps, principal: Principal, domainId: string): Promise<PublicLinkDomain> {
  const view = await linkDomainViewOf(deps, (await owned(deps, principal, domainId)).domain);
  if (view) return view;
  throw notHosted(domainId);
}

function firstLinkDomain(domain: Domain, now: string): StoredLinkDomain {
  return { ...firstAttempt(domain, STARTING, now), host: linkHostOf(domain.name), domain_name: domain.name, version: 1 };
}

/** PUT: a new link domain, or a failed one started over; any other state is kept as it is, its next step due now. */
export async function putLinkDomain(deps: ManageLinkDomainDeps, principal: Principal, domainId: string): Promise<PublicLinkDomain> {
  const { domain } = await owned(deps, principal, domainId);
  if (domain.status !== 'verified') {
    const message = `${domain.name} is not verified yet: verify it before giving it a link domain.`;
    throw new ValidationError(message, { details: { fields: [{ field: 'domain', message }] } });
  }
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const stored = await deps.linkDomains.get(linkHostOf(domain.name));
    if (stored && (stored.hosting.domain_id !== domain.id || stored.hosting.status === 'removing')) {
      throw new ConflictError(`The link domain ${linkHostOf(domain.name)} is still being removed; try again in a minute.`, 'conflict', {
        details: { domain_id: domainId },
        hint: 'Send the request again in a minute.',
      });
    }
    const now = deps.clock.now();
    const current = stored?.hosting ?? null;
    // A live one is kept as it is, its next step due now (the owner has just published a record: check now).
    const next: StoredLinkDomain = !current
      ? firstLinkDomain(domain, now.toISOString())
      : current.status === 'failed'
        ? { ...current, ...newAttempt(current, STARTING, now.toISOString()), updated_at: now.toISOString(), version: current.version + 1 }
        : { ...current, version: current.version + 1 };
    // The next step is due now: the domain-health task takes it within a minute.
    const written = current
      ? await deps.linkDomains.save(next, now)
      : await deps.linkDomains.create(next, now, PLANS[principal.account.plan].linkDomains);
    if (written === 'saved') return toPublicLinkDomain(next, now.toISOString());
    if (written === 'limit') throw planBoundError(principal, deps.dashboardUrl, LINK_DOMAINS);
  }
  throw changedMeanwhile(domainId);
}

/** DELETE: `link_host` cleared at once, the link domain marked `removing` (./step.ts takes it down). */
export async function deleteLinkDomain(deps: ManageLinkDomainDeps, principal: Principal, domainId: string) {
  const { domain } = await owned(deps, principal, domainId);
  const errors = { notFound: () => notHosted(domainId), changedMeanwhile: () => changedMeanwhile(domainId) };
  const startRemoval = (linkDomain: StoredLinkDomain) => startLinkDomainRemoval(deps, linkDomain);
  await markForRemoval({ ...errors, startRemoval, read: () => linkDomainOf(deps, domain) });
  return { object: 'link_domain' as const, domain_id: domainId, deleted: true as const };
}

/**
 * Clears the domain's `link_host` (its links go back to LINKS_BASE_URL at once), then marks the link domain
 * `removing` (the task deletes its custom domain name, certificate and item); null when another write came first.
 */
export async function startLinkDomainRemoval(
  deps: Pick<LinkDomainDeps, 'linkDomains' | 'clock'>,
  linkDomain: StoredLinkDomain,
): Promise<StoredLinkDomain | null> {
  await deps.linkDomains.setLinkHost(linkDomain.domain_id, null);
  const now = deps.clock.now();
  const removing = removingOf(linkDomain, 'Being removed: the link domain, its certificate, then this record.', now.toISOString());
  return (await deps.linkDomains.save(removing, now)) === 'saved' ? removing : null;
}
