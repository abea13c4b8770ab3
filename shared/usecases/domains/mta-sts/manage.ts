/**
 * GET, PUT and DELETE /domains/{id}/mta-sts (docs/deliverability.md, "Hosted MTA-STS policy"): the hosted
 * policy of the domain's receiving subdomain. PUT stores the policy with its next step due now; DELETE marks
 * it `removing`, due now. The steps themselves (ACM, API Gateway, DNS) are the domain-health task's, within a
 * minute (./step.ts): the API's functions call neither ACM nor API Gateway, so their bundles and grants hold
 * neither. Writes are conditional on the version read, and re-read when another write came first. A new policy
 * takes a place of the account's bound (its plan's `mtaStsPolicies`) in the same transaction as its creation
 * (403 plan_limit at the bound); the place is given back when its removal completes (./step.ts).
 */
import { toPublicHosting, type PublicHosting, type StoredHosting } from '#shared/domain/domains/mta-sts/hosting';
import { firstAttempt, newAttempt, removingOf } from '#shared/domain/domains/hosting/host-hosting';
import { DEFAULT_MAX_AGE_S, policyIdOf, type MtaStsInput } from '#shared/domain/domains/mta-sts/policy';
import type { Domain } from '#shared/domain/domains/domain';
import { PLANS } from '#shared/domain/accounts/plans';
import { ConflictError, NotFoundError, ValidationError } from '#shared/domain/errors';
import type { DomainCrud } from '#shared/adapters/store/domains/crud';
import type { Principal } from '../../access/principal';
import { owned } from '../deps';
import { markForRemoval } from '../hosting/delete';
import { planBoundError, type HostedKindBound } from '../hosting/plan-bound';
import type { MtaStsHostingDeps } from './deps';

export interface ManageHostingDeps extends Pick<MtaStsHostingDeps, 'mtaStsHosting' | 'clock'> {
  domains: Pick<DomainCrud, 'get'>;
  /** The MX host a receiving subdomain's policy names: INBOUND_MX_HOST. */
  inboundMxHost: string;
  /** Where an account upgrades its plan (a plan_limit error's `upgrade_url`). */
  dashboardUrl: string;
}

/** Writes lost to concurrent ones before the request answers 409. */
const ATTEMPTS = 5;

function changedMeanwhile(domainId: string): ConflictError {
  return new ConflictError(
    `The MTA-STS policy of domain ${domainId} kept changing while this request ran; nothing was changed by it.`,
    'conflict',
    { details: { domain_id: domainId }, hint: 'Send the request again.' },
  );
}

/** The receiving subdomain whose policy this is; 400 when the domain cannot have one yet. */
function policyDomainOf(domain: Domain): string {
  const refuse = (message: string) => new ValidationError(message, { details: { fields: [{ field: 'domain', message }] } });
  if (!domain.inbound_enabled || !domain.inbound_subdomain) {
    throw refuse(
      `${domain.name} does not receive mail: a hosted MTA-STS policy is for its receiving subdomain, whose MX is this service. Turn inbound_enabled on first (PATCH /domains/${domain.id}).`,
    );
  }
  if (domain.status !== 'verified')
    throw refuse(`${domain.name} is not verified yet: verify it before hosting its receiving subdomain's MTA-STS policy.`);
  return domain.inbound_subdomain;
}

/** The message of a policy whose certificate is about to be requested. */
const STARTING = 'Requesting the certificate of the policy host: its validation record is listed here within a minute.';

function notHosted(domainId: string): NotFoundError {
  return new NotFoundError('MTA-STS policy', domainId);
}

/** The hosting of this domain (another domain's of the same name, being removed, is not this one's). */
async function hostingOf(
  deps: Pick<ManageHostingDeps, 'mtaStsHosting'>,
  domain: Domain,
): Promise<{ hosting: StoredHosting; nextStepAt: string | null } | null> {
  if (!domain.inbound_subdomain) return null;
  const stored = await deps.mtaStsHosting.get(domain.inbound_subdomain);
  return stored && stored.hosting.domain_id === domain.id ? stored : null;
}

/** The domain's hosted policy as shown (the domain already read and visible); null when none (or being removed). */
export async function hostingViewOf(deps: Pick<ManageHostingDeps, 'mtaStsHosting'>, domain: Domain): Promise<PublicHosting | null> {
  const stored = await hostingOf(deps, domain);
  return stored && stored.hosting.status !== 'removing' ? toPublicHosting(stored.hosting, stored.nextStepAt) : null;
}

export async function getHosting(deps: ManageHostingDeps, principal: Principal, domainId: string): Promise<PublicHosting> {
  const { domain } = await owned(deps, principal, domainId);
  const stored = await hostingOf(deps, domain);
  if (!stored || stored.hosting.status === 'removing') throw notHosted(domainId);
  return toPublicHosting(stored.hosting, stored.nextStepAt);
}

/** The first hosting of the policy: its certificate to request, and a place of the plan's bound taken. */
function firstHosting(
  domain: Domain,
  policyDomain: string,
  policy: Pick<StoredHosting, 'mode' | 'max_age' | 'mx'>,
  now: string,
  version: number,
): StoredHosting {
  return {
    ...firstAttempt(domain, STARTING, now),
    policy_domain: policyDomain,
    mode: policy.mode,
    max_age: policy.max_age,
    policy_id: policyIdOf(now, version),
    mx: policy.mx,
    version,
    plan_slot: true,
  };
}

/** The hosting as PUT makes it from what is stored (null: none). */
function configured(
  domain: Domain,
  policyDomain: string,
  current: StoredHosting | null,
  input: MtaStsInput,
  mxHost: string,
  now: string,
): StoredHosting {
  const version = (current?.version ?? 0) + 1;
  const maxAge = input.max_age ?? current?.max_age ?? DEFAULT_MAX_AGE_S;
  const mx = [mxHost];
  if (!current) return firstHosting(domain, policyDomain, { mode: input.mode, max_age: maxAge, mx }, now, version);
  const policyChanged = current.mode !== input.mode || current.max_age !== maxAge || current.mx.join(' ') !== mx.join(' ');
  return {
    ...current,
    mode: input.mode,
    max_age: maxAge,
    mx,
    policy_id: policyChanged ? policyIdOf(now, version) : current.policy_id,
    // A failed hosting starts over: a new attempt requests a new certificate (the failed one is deleted by the step).
    ...(current.status === 'failed' ? newAttempt(current, STARTING, now) : {}),
    updated_at: now,
    version,
  };
}

export async function putHosting(
  deps: ManageHostingDeps,
  principal: Principal,
  domainId: string,
  input: MtaStsInput,
): Promise<PublicHosting> {
  const { domain } = await owned(deps, principal, domainId);
  const policyDomain = policyDomainOf(domain);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const stored = await deps.mtaStsHosting.get(policyDomain);
    if (stored && (stored.hosting.domain_id !== domain.id || stored.hosting.status === 'removing')) {
      throw new ConflictError(`The MTA-STS policy host of ${policyDomain} is still being removed; try again in a minute.`, 'conflict', {
        details: { domain_id: domainId },
        hint: 'Send the request again in a minute.',
      });
    }
    const now = deps.clock.now();
    const current = stored?.hosting ?? null;
    const next = configured(domain, policyDomain, current, input, deps.inboundMxHost, now.toISOString());
    // The next step is due now: the domain-health task takes it within a minute.
    const written = current
      ? await deps.mtaStsHosting.save(next, now)
      : await deps.mtaStsHosting.create(next, now, PLANS[principal.account.plan].mtaStsPolicies);
    if (written === 'saved') return toPublicHosting(next, now.toISOString());
    if (written === 'limit') throw planBoundError(principal, deps.dashboardUrl, POLICIES);
  }
  throw changedMeanwhile(domainId);
}

const POLICIES: HostedKindBound = {
  limit: 'mtaStsPolicies',
  resource: 'mta_sts_policies',
  one: 'hosted MTA-STS policy',
  many: 'hosted MTA-STS policies',
};

export async function deleteHosting(
  deps: ManageHostingDeps,
  principal: Principal,
  domainId: string,
): Promise<{ object: 'mta_sts_hosting'; domain_id: string; deleted: true }> {
  const { domain } = await owned(deps, principal, domainId);
  await markForRemoval({
    read: () => hostingOf(deps, domain),
    startRemoval: (hosting) => startRemoval(deps, hosting),
    notFound: () => notHosted(domainId),
    changedMeanwhile: () => changedMeanwhile(domainId),
  });
  return { object: 'mta_sts_hosting', domain_id: domainId, deleted: true };
}

/**
 * Marks the hosting `removing` (the task deletes its custom domain name, certificate and item); null when
 * another write came first. Also the domain's deletion's (./remove-with-receiving.ts).
 */
export async function startRemoval(
  deps: Pick<MtaStsHostingDeps, 'mtaStsHosting' | 'clock'>,
  hosting: StoredHosting,
): Promise<StoredHosting | null> {
  const now = deps.clock.now();
  const removing = removingOf(hosting, 'Being removed: the policy host, its certificate, then this policy.', now.toISOString());
  return (await deps.mtaStsHosting.save(removing, now)) === 'saved' ? removing : null;
}
