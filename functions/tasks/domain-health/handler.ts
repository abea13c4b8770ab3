/**
 * The domain-health task, one pass per invocation (an EventBridge rule every minute on AWS; a timer on the
 * local cloud): the domains whose next health check is due are checked and stored, and domain.health_changed
 * raised where a finding opened or was fixed (shared/usecases/domains/due-health-checks.ts;
 * docs/deliverability.md, "Domain health"); then hosted MTA-STS policies whose next step is due take it
 * (shared/usecases/domains/mta-sts/due-steps.ts; "Hosted MTA-STS policy").
 */
import { loadConfig } from '#shared/config/config';
import { logError, logInfo } from '#shared/lib/log';
import { buildCore } from '#shared/services/core';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildMtaStsHosting, buildMtaStsProvisioning } from '#shared/services/mta-sts';
import { runDueHostingSteps, type DueHostingStepsReport } from '#shared/usecases/domains/mta-sts/due-steps';
import { runDueHealthChecks, type DueHealthChecksReport } from '#shared/usecases/domains/due-health-checks';

// The composition root: only what the task uses (shared/services/), built once per cold start.
const config = loadConfig();
const core = buildCore(config);
const deps = {
  ...core,
  ...buildDeliverability(core),
  ...buildMtaStsHosting(core),
  ...buildMtaStsProvisioning(core),
  events: buildMessaging(config).events,
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
