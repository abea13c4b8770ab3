/** The CloudWatch namespace of the service's own metrics (Embedded Metric Format log lines; infra/constructs/alarms.ts alarms on them). */
export const METRICS_NAMESPACE = 'Mailservice';
