/**
 * The domain-health task, one pass per invocation (an EventBridge rule every minute on AWS; a timer on the
 * local cloud): the domains whose next health check is due are checked and stored, and domain.health_changed
 * raised where a finding opened or was fixed (shared/usecases/domains/due-health-checks.ts;
 * docs/deliverability.md, "Domain health"); then hosted MTA-STS policies whose next step is due take it
 * (shared/usecases/domains/mta-sts/due-steps.ts; "Hosted MTA-STS policy"), and link domains whose next step is
 * due (shared/usecases/domains/link-domain/step.ts; docs/tracking.md, "Link domains").
 */
import { logError, logInfo } from '#shared/lib/log';
import { runDueHostingSteps, type DueHostingStepsReport } from '#shared/usecases/domains/mta-sts/due-steps';
import { runDueLinkDomainSteps } from '#shared/usecases/domains/link-domain/step';
import { runDueHealthChecks, type DueHealthChecksReport } from '#shared/usecases/domains/due-health-checks';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildMtaStsHosting } from '#shared/services/mta-sts-hosting';
import { buildLinkDomains } from '#shared/services/link-domains';
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
  ...buildLinkDomains(platform),
  events: buildMessaging(platform).events,
};

/** Checks are started for this long; each takes at most about 10 s, within the task's 50 s timeout. */
const START_BUDGET_MS = 25_000;
/**
 * Then MTA-STS steps, then link domains' steps, each for this long (a step is a few AWS calls and DNS lookups:
 * a few seconds at most): 25 + 8 + 8 s started, each finished within the 50 s timeout.
 */
const STEPS_BUDGET_MS = 8_000;

type DomainHealthReport = DueHealthChecksReport & { mta_sts: DueHostingStepsReport; link_domains: DueHostingStepsReport };

export const handler = async (): Promise<DomainHealthReport> => {
  const report = await runDueHealthChecks(deps, { budgetMs: START_BUDGET_MS, log: logError });
  const mtaSts = await runDueHostingSteps(deps, { budgetMs: STEPS_BUDGET_MS, log: logError });
  const linkDomains = await runDueLinkDomainSteps(deps, { budgetMs: STEPS_BUDGET_MS, log: logError });
  if (report.checked || report.forgotten || report.errors || mtaSts.steps || mtaSts.errors || linkDomains.steps || linkDomains.errors)
    logInfo('domain-health', { ...report, mta_sts: { ...mtaSts }, link_domains: { ...linkDomains } });
  return { ...report, mta_sts: mtaSts, link_domains: linkDomains };
};
