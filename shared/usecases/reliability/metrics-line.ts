/**
 * The reconciler's report as one CloudWatch Embedded Metric Format log line: Lambda's log stream turns
 * it into metrics (namespace Mailservice) with no SDK call. The stack alarms on `Redriven` and
 * `OldestDueAgeSeconds` (infra/constructs/tasks.ts).
 */
import { METRICS_NAMESPACE } from '../../config/metrics';
import type { ReconcileReport } from './reconcile';

/**
 * An idle pass (nothing examined, re-driven, expired or failed) is logged at most this often: on AWS the
 * reconciler runs once a minute, so every pass is logged (one datapoint per minute, what the alarms
 * read); on the local cloud it runs every 2 s, and `npm start`'s output gets a line a minute, not 30.
 */
export const IDLE_REPORT_EVERY_MS = 50_000;

/** A pass that found nothing: every count 0, no past-due entry. */
export function isIdleReport(report: ReconcileReport): boolean {
  return Object.values(report).every((value) => value === 0 || value === null);
}

/** Whether a pass's report is worth its log line: it did something, or the last idle line is old enough. */
export function shouldLogReport(report: ReconcileReport, lastIdleLoggedAt: number | null, now: number): boolean {
  return !isIdleReport(report) || lastIdleLoggedAt === null || now - lastIdleLoggedAt >= IDLE_REPORT_EVERY_MS;
}

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
