/**
 * 403 plan_limit of a hosted host's kind (hosted MTA-STS policies, link domains): the account has as many as
 * its plan allows (removals under way count until done: their place is given back by the task's last step).
 */
import { PLANS, upgradeUrl, type PlanLimits } from '#shared/domain/accounts/plans';
import { AppError } from '#shared/domain/errors';
import type { Principal } from '../../access/principal';

export interface HostedKindBound {
  /** The plan's field bounding the kind. */
  limit: keyof Pick<PlanLimits, 'mtaStsPolicies' | 'linkDomains'>;
  /** The error's details.resource. */
  resource: string;
  /** What one is called, then more than one. */
  one: string;
  many: string;
}

export function planBoundError(principal: Principal, dashboardUrl: string, bound: HostedKindBound): AppError {
  const plan = principal.account.plan;
  const limit = PLANS[plan][bound.limit];
  return new AppError(
    403,
    'plan_limit',
    `The ${plan} plan includes ${limit} ${limit === 1 ? bound.one : bound.many}; delete one (its place is free once its removal completes, within a few minutes) or upgrade to host more.`,
    { details: { limit, resource: bound.resource, plan }, upgradeUrl: upgradeUrl(dashboardUrl) },
  );
}
