/**
 * Plans and their limits (spec, Limits). `null` means no fixed cap. Enforcement of send counters and
 * domain/tenant counts lives with the features that consume them; the numbers live here only.
 */
export const PLAN_NAMES = ['free', 'pro', 'scale', 'dedicated'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface PlanLimits {
  /** Emails per calendar month (UTC). For paid plans this is the included volume; overage is billed. */
  monthlyEmails: number | null;
  /** Hard cap: true refuses sends over monthlyEmails (429 plan_limit); false bills overage. */
  monthlyHardCap: boolean;
  dailyEmails: number | null;
  domains: number;
  tenants: number;
  /**
   * Addresses POST /validations and /validations/batch may check per hour (each address of a batch counts):
   * enough to check every address a plan's volume sends to before its first send, while a free account
   * cannot use the service as a list-cleaning oracle (shared/domain/rate-limits.ts, validationRateLimit).
   */
  validationsPerHour: number;
  /**
   * Hosted MTA-STS policies the account may have at once (docs/deliverability.md, "Hosted MTA-STS policy"): each
   * holds an ACM certificate and an API Gateway custom domain name of the deployment's AWS account, whose
   * quotas all accounts share (120 custom domain names per Region by default), so no account takes them all.
   */
  mtaStsPolicies: number;
  /**
   * Link domains (`links.<domain>`, docs/tracking.md) the account may have at once: each holds a certificate and
   * a custom domain name of the same shared quotas as a hosted MTA-STS policy.
   */
  linkDomains: number;
}

export const PLANS: Record<PlanName, PlanLimits> = {
  free: {
    monthlyEmails: 3_000,
    monthlyHardCap: true,
    dailyEmails: 100,
    domains: 1,
    tenants: 0,
    validationsPerHour: 100,
    mtaStsPolicies: 1,
    linkDomains: 1,
  },
  pro: {
    monthlyEmails: 50_000,
    monthlyHardCap: false,
    dailyEmails: null,
    domains: 10,
    tenants: 0,
    validationsPerHour: 2_000,
    mtaStsPolicies: 5,
    linkDomains: 5,
  },
  scale: {
    monthlyEmails: 100_000,
    monthlyHardCap: false,
    dailyEmails: null,
    domains: 1_000,
    tenants: 1_000,
    validationsPerHour: 10_000,
    mtaStsPolicies: 20,
    linkDomains: 20,
  },
  dedicated: {
    monthlyEmails: null,
    monthlyHardCap: false,
    dailyEmails: null,
    domains: 10_000,
    tenants: 10_000,
    validationsPerHour: 50_000,
    mtaStsPolicies: 50,
    linkDomains: 50,
  },
};

/** The shared sandbox sender's own hard caps, whatever the plan. */
export const SANDBOX_LIMITS = { dailyEmails: 100, monthlyEmails: 3_000 };

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** Where an account upgrades its plan (the `upgrade_url` of plan_limit errors). */
export function upgradeUrl(dashboardUrl: string): string {
  return `${dashboardUrl}/settings/billing`;
}
