/**
 * The domain-health task, one pass per invocation (an EventBridge rule every minute on AWS; a timer on the
 * local cloud): the domains whose next health check is due are checked and stored, and domain.health_changed
 * raised where a finding opened or was fixed (shared/usecases/domains/due-health-checks.ts;
 * docs/deliverability.md, "Domain health"); then hosted MTA-STS policies whose next step is due take it
 * (shared/usecases/domains/mta-sts/due-steps.ts; "Hosted MTA-STS policy").
 */
import { logError, logInfo } from '#shared/lib/log';
import { runDueHostingSteps, type DueHostingStepsReport } from '#shared/usecases/domains/mta-sts/due-steps';
import { runDueHealthChecks, type DueHealthChecksReport } from '#shared/usecases/domains/due-health-checks';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildMtaStsHosting } from '#shared/services/mta-sts-hosting';
import { buildMtaStsProvisioning } from '#shared/services/mta-sts-provisioning';

// The composition root: only the capabilities the task uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const deps = {
  ...platform,
  ...buildAccess(platform),
  ...buildTenants(platform),
  ...buildDomains(platform),
  ...buildDeliverability(platform),
  ...buildMtaStsHosting(platform),
  ...buildMtaStsProvisioning(platform),
  events: buildMessaging(platform).events,
};

/** Checks are started for this long; each takes at most about 10 s, within the task's 50 s timeout. */
const START_BUDGET_MS = 25_000;
/** Then MTA-STS steps, for this long (a step is a few AWS calls and DNS lookups: a few seconds at most). */
const STEPS_BUDGET_MS = 8_000;

export const handler = async (): Promise<DueHealthChecksReport & { mta_sts: DueHostingStepsReport }> => {
  const report = await runDueHealthChecks(deps, { budgetMs: START_BUDGET_MS, log: logError });
  const mtaSts = await runDueHostingSteps(deps, { budgetMs: STEPS_BUDGET_MS, log: logError });
  if (report.checked || report.forgotten || report.errors || mtaSts.steps || mtaSts.errors)
    logInfo('domain-health', { ...report, mta_sts: { ...mtaSts } });
  return { ...report, mta_sts: mtaSts };
};
