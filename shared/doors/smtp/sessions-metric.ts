/**
 * The relay task's open SMTP sessions (submission and MX together) as a CloudWatch Embedded Metric Format log
 * line, once a minute: ECS's awslogs driver sends the task's output to CloudWatch Logs, which turns the line into
 * the metric `Mailservice/OpenSessions` (dimension `Service: smtp-relay`) with no SDK call. Each task writes one
 * datapoint a minute, so the metric's Average is the sessions per task: the relay service's target tracking
 * scales on it (infra/constructs/smtp-relay.ts), beside CPU, so a task never nears its SMTP_MAX_CLIENTS.
 */
import { METRICS_NAMESPACE } from '../../config/metrics';
import { logMetric } from '../../lib/log';

/** The metric's name and its one dimension, as the relay writes them and the stack's scaling policy reads them. */
export const SESSIONS_METRIC = { name: 'OpenSessions', dimension: { Service: 'smtp-relay' } } as const;

/** How often a task writes the line (one datapoint per CloudWatch minute). */
export const SESSIONS_METRIC_EVERY_MS = 60_000;

/** The EMF fields of `sessions` open sessions at `now` (epoch ms): the directive, the dimension and the value at the root. */
export function sessionsMetric(sessions: number, now: number): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [Object.keys(SESSIONS_METRIC.dimension)],
          Metrics: [{ Name: SESSIONS_METRIC.name, Unit: 'Count' }],
        },
      ],
    },
    ...SESSIONS_METRIC.dimension,
    [SESSIONS_METRIC.name]: sessions,
  };
}

/**
 * Writes the metric every `everyMs` with `count()`'s sessions, at every log level but `silent` (logMetric: the
 * scaling policy needs every datapoint); returns the stop. The timer does not keep the process alive.
 */
export function reportSessions(
  count: () => number,
  write: (fields: Record<string, unknown>) => void = (fields) => logMetric('smtp sessions', fields),
  everyMs: number = SESSIONS_METRIC_EVERY_MS,
  now: () => number = Date.now,
): () => void {
  const timer = setInterval(() => write(sessionsMetric(count(), now())), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
