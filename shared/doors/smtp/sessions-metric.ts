/**
 * The relay task's open SMTP sessions (submission and MX together) as a CloudWatch Embedded Metric Format log
 * line, once a minute: ECS's awslogs driver sends the task's output to CloudWatch Logs, which turns the line into
 * the metric `Mailservice/OpenSessions` (dimension `Service: smtp-relay`) with no SDK call. Each task writes one
 * datapoint a minute, so the metric's Average is the sessions per task: the relay service's target tracking
 * scales on it (infra/constructs/smtp-relay.ts), beside CPU, so a task never nears its SMTP_MAX_CLIENTS.
 */
import { METRICS_NAMESPACE } from '../../config/metrics';

/** The metric's name and its one dimension, as the relay writes them and the stack's scaling policy reads them. */
export const SESSIONS_METRIC = { name: 'OpenSessions', dimension: { Service: 'smtp-relay' } } as const;

/** How often a task writes the line (one datapoint per CloudWatch minute). */
export const SESSIONS_METRIC_EVERY_MS = 60_000;

/** The EMF line of `sessions` open sessions at `now` (epoch ms). */
export function sessionsMetricLine(sessions: number, now: number): string {
  return JSON.stringify({
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
    level: 'info',
    message: 'smtp sessions',
    [SESSIONS_METRIC.name]: sessions,
  });
}

/** Standard output, at every log level but `silent` (the scaling policy needs every datapoint; a silenced process says nothing). */
function writeUnlessSilent(line: string): void {
  if (process.env.LOG_LEVEL !== 'silent') console.log(line);
}

/** Writes the line every `everyMs` with `count()`'s sessions; returns the stop. The timer does not keep the process alive. */
export function reportSessions(
  count: () => number,
  write: (line: string) => void = writeUnlessSilent,
  everyMs: number = SESSIONS_METRIC_EVERY_MS,
  now: () => number = Date.now,
): () => void {
  const timer = setInterval(() => write(sessionsMetricLine(count(), now())), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
