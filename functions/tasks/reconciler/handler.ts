/**
 * The reconciler, one pass per invocation (EventBridge rule every minute on AWS; a timer on the local
 * cloud): re-drives work the due index shows as stuck, completes domains SES verified after their check
 * (reconcile-provider-pending.ts: the mailer's GetEmailIdentity), and sweeps SES tenants against ours
 * (shared/usecases/reliability/reconcile.ts, reconcile-ses-tenants.ts). Its report is
 * logged as a CloudWatch embedded metric (namespace Mailservice): re-drives and the age of the oldest
 * past-due item, which the stack alarms on (docs/reliability.md).
 */
import { logError } from '#shared/lib/log';
import { reconcile, type ReconcileReport } from '#shared/usecases/reliability/reconcile';
import { isIdleReport, reconcileMetricsLine, shouldLogReport } from '#shared/usecases/reliability/metrics-line';
import { buildPlatform } from '#shared/services/platform';
import { buildAccess } from '#shared/services/access';
import { buildTenants } from '#shared/services/tenants';
import { buildDomains } from '#shared/services/domains';
import { buildEmails } from '#shared/services/emails';
import { buildWebhooks } from '#shared/services/webhooks';
import { buildAutomations } from '#shared/services/automations';
import { buildInbound } from '#shared/services/inbound';
import { buildRecovery } from '#shared/services/recovery';
import { buildDeliverability } from '#shared/services/deliverability';
import { buildMessaging } from '#shared/services/messaging';
import { buildSes } from '#shared/services/ses';
import { buildBlobs } from '#shared/services/blobs';

// The composition root: only the capabilities the task uses (shared/services/), built once per cold start.
const platform = buildPlatform();
const access = buildAccess(platform);
const domains = buildDomains(platform);
const services = {
  ...platform,
  ...access,
  ...buildTenants(platform),
  ...domains,
  ...buildEmails(platform),
  ...buildWebhooks(platform),
  ...buildAutomations(platform),
  ...buildInbound(platform, domains),
  ...buildRecovery(platform),
  ...buildDeliverability(platform),
  ...buildMessaging(platform),
  ...buildSes(platform.config),
  ...buildBlobs(platform.config),
};

/** When this process last logged an idle pass (shouldLogReport). */
let lastIdleLoggedAt: number | null = null;

export const handler = async (): Promise<ReconcileReport> => {
  const report = await reconcile(
    { ...services, bounds: services.config.recovery, sesTenantSweep: services, inboundSweep: services },
    (message, error) => logError(message, error),
  );
  const now = services.clock.now();
  if (process.env.LOG_LEVEL !== 'silent' && shouldLogReport(report, lastIdleLoggedAt, now.getTime())) {
    console.log(reconcileMetricsLine(report, now));
    if (isIdleReport(report)) lastIdleLoggedAt = now.getTime();
  }
  return report;
};
