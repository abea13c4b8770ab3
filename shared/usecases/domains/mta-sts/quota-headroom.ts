/**
 * The deployment's headroom for hosted MTA-STS policies and link domains (`npm run admin -- mta-sts quota`,
 * docs/deploy.md "Hosted MTA-STS headroom"): each holds one ACM certificate and one API Gateway regional custom domain
 * name of the AWS account, whose quotas every account of the deployment shares; each account's own bound is its
 * plan's (shared/domain/accounts/plans.ts). The quotas are AWS's defaults unless the operator raised them
 * (Service Quotas) and says so.
 */
import { PLAN_NAMES, PLANS, type PlanName } from '#shared/domain/accounts/plans';
import type { HostingQuotaUsage } from '#shared/ports/hosting';

/** AWS's default quotas: regional custom domain names per account and Region (API Gateway), ACM certificates. */
export const DEFAULT_HOSTING_QUOTAS = { domainNames: 120, certificates: 2_500 };

export interface HostingHeadroom {
  custom_domain_names: { used: number; quota: number; available: number };
  certificates: { used: number; quota: number; available: number };
  /** How many more policies or link domains the deployment can host: the smaller of the two available. */
  policies_available: number;
  /** Each plan's bound on one account's hosted policies. */
  policies_per_account: Record<PlanName, number>;
  /** Each plan's bound on one account's link domains (docs/tracking.md), which hold the same resources. */
  link_domains_per_account: Record<PlanName, number>;
}

const perPlan = (bound: 'mtaStsPolicies' | 'linkDomains') =>
  Object.fromEntries(PLAN_NAMES.map((plan) => [plan, PLANS[plan][bound]])) as Record<PlanName, number>;

export async function hostingHeadroom(
  usage: HostingQuotaUsage,
  quotas: { domainNames: number; certificates: number } = DEFAULT_HOSTING_QUOTAS,
): Promise<HostingHeadroom> {
  const [domainNames, certificates] = await Promise.all([usage.domainNames(), usage.certificates()]);
  const figure = (used: number, quota: number) => ({ used, quota, available: Math.max(0, quota - used) });
  const names = figure(domainNames, quotas.domainNames);
  const certs = figure(certificates, quotas.certificates);
  return {
    custom_domain_names: names,
    certificates: certs,
    policies_available: Math.min(names.available, certs.available),
    policies_per_account: perPlan('mtaStsPolicies'),
    link_domains_per_account: perPlan('linkDomains'),
  };
}
