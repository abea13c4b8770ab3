/**
 * The relay task's scaling metric (shared/doors/smtp/sessions-metric.ts): an EMF line CloudWatch Logs turns into
 * Mailservice/OpenSessions by Service, written once a minute with the task's open sessions, whatever the log level.
 */
import { METRICS_NAMESPACE } from '#shared/config/metrics';
import { reportSessions, SESSIONS_METRIC, SESSIONS_METRIC_EVERY_MS, sessionsMetric } from '#shared/doors/smtp/sessions-metric';

describe('sessionsMetric', () => {
  test('is an Embedded Metric Format document: the metric under its namespace and dimension, its value at the root', () => {
    const line = sessionsMetric(37, 1_790_000_000_000);
    expect(line._aws).toEqual({
      Timestamp: 1_790_000_000_000,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['Service']], Metrics: [{ Name: 'OpenSessions', Unit: 'Count' }] }],
    });
    // EMF requires each dimension and metric named in the directive as a root member.
    expect(line.Service).toBe('smtp-relay');
    expect(line[SESSIONS_METRIC.name]).toBe(37);
  });
});

describe('reportSessions', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('writes a line with the current count every minute until stopped, without keeping the process alive', () => {
    let open = 3;
    const lines: Record<string, unknown>[] = [];
    const stop = reportSessions(
      () => open,
      (line) => lines.push(line),
      SESSIONS_METRIC_EVERY_MS,
      () => 1000,
    );
    expect(lines).toHaveLength(0);
    jest.advanceTimersByTime(SESSIONS_METRIC_EVERY_MS);
    open = 250;
    jest.advanceTimersByTime(SESSIONS_METRIC_EVERY_MS);
    expect(lines.map((line) => line.OpenSessions)).toEqual([3, 250]);
    stop();
    jest.advanceTimersByTime(5 * SESSIONS_METRIC_EVERY_MS);
    expect(lines).toHaveLength(2);
  });

  test('the timer is unref()ed: a relay stopping is not held up by it', () => {
    const unref = jest.spyOn(globalThis, 'setInterval');
    const stop = reportSessions(
      () => 0,
      () => undefined,
    );
    const timer = unref.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    stop();
    unref.mockRestore();
  });
});

describe('reportSessions, its default output', () => {
  const level = process.env.LOG_LEVEL;
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
  });

  test('standard output at any level, warn included (the scaling policy needs every datapoint); nothing when silent', () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      process.env.LOG_LEVEL = 'warn';
      const stop = reportSessions(() => 7);
      jest.advanceTimersByTime(SESSIONS_METRIC_EVERY_MS);
      process.env.LOG_LEVEL = 'silent';
      jest.advanceTimersByTime(SESSIONS_METRIC_EVERY_MS);
      stop();
      expect(log.mock.calls.map(([line]) => JSON.parse(String(line)).OpenSessions)).toEqual([7]);
    } finally {
      log.mockRestore();
    }
  });
});
