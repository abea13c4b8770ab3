/**
 * The reconciler, one pass per invocation (EventBridge rule every minute on AWS; a timer on the local
 * cloud): re-drives work the due index shows as stuck (shared/usecases/reconcile.ts). Its report is
 * logged as a CloudWatch embedded metric (namespace Mailservice): re-drives and the age of the oldest
 * past-due item, which the stack alarms on (docs/reliability.md).
 */
import { buildServices } from '../../../shared/services';
import { logError } from '../../../shared/log';
import { reconcile, type ReconcileReport } from '../../../shared/usecases/reconcile';
import { reconcileMetricsLine } from '../../../shared/reliability-metrics';

const services = buildServices();

export const handler = async (): Promise<ReconcileReport> => {
  const report = await reconcile({ ...services, bounds: services.config.recovery }, (message, error) => logError(message, error));
  if (process.env.LOG_LEVEL !== 'silent') console.log(reconcileMetricsLine(report, services.clock.now()));
  return report;
};
