/**
 * The reconciler's report as one CloudWatch Embedded Metric Format log line: Lambda's log stream turns
 * it into metrics (namespace Mailservice) with no SDK call. The stack alarms on `Redriven` and
 * `OldestDueAgeSeconds` (infra/constructs/tasks.ts).
 */
import type { ReconcileReport } from './usecases/reconcile';

export const METRICS_NAMESPACE = 'Mailservice';

export function reconcileMetricsLine(report: ReconcileReport, now: Date): string {
  const oldestDueAgeSeconds = report.oldest_due_at ? Math.max(0, Math.round((now.getTime() - Date.parse(report.oldest_due_at)) / 1000)) : 0;
  const redriven = report.redriven_queued + report.redriven_scheduled + report.redriven_webhooks + report.redriven_runs;
  return JSON.stringify({
    _aws: {
      Timestamp: now.getTime(),
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['Task']],
          Metrics: [
            { Name: 'Redriven', Unit: 'Count' },
            { Name: 'NoOutcomeExpired', Unit: 'Count' },
            { Name: 'ReconcileErrors', Unit: 'Count' },
            { Name: 'OldestDueAgeSeconds', Unit: 'Seconds' },
          ],
        },
      ],
    },
    Task: 'reconciler',
    level: 'info',
    message: 'reconciler',
    Redriven: redriven,
    NoOutcomeExpired: report.expired,
    ReconcileErrors: report.errors,
    OldestDueAgeSeconds: oldestDueAgeSeconds,
    ...report,
  });
}
