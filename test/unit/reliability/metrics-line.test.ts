/** The reconciler's log line: an idle pass at most once per IDLE_REPORT_EVERY_MS, any pass that did something always. */
import { IDLE_REPORT_EVERY_MS, isIdleReport, reconcileMetricsLine, shouldLogReport } from '#shared/usecases/reliability/metrics-line';
import type { ReconcileReport } from '#shared/usecases/reliability/reconcile';
import { NO_SES_TENANT_WORK } from '#shared/usecases/ses-tenants/reconcile-ses-tenants';
import { NO_UNQUEUED_INBOUND_WORK } from '#shared/usecases/inbound/discard-unqueued';
import { NO_PROVIDER_PENDING_WORK } from '#shared/usecases/domains/reconcile-provider-pending';

const idle: ReconcileReport = {
  examined: 0,
  redriven_queued: 0,
  redriven_scheduled: 0,
  redriven_webhooks: 0,
  redriven_runs: 0,
  delayed: 0,
  expired: 0,
  reannounced: 0,
  waiting: 0,
  cleared: 0,
  errors: 0,
  oldest_due_at: null,
  ...NO_SES_TENANT_WORK,
  ...NO_UNQUEUED_INBOUND_WORK,
  ...NO_PROVIDER_PENDING_WORK,
};

test('a pass is idle only when every count is 0 and nothing is past due', () => {
  expect(isIdleReport(idle)).toBe(true);
  for (const field of Object.keys(idle).filter((name) => name !== 'oldest_due_at')) {
    expect({ field, idle: isIdleReport({ ...idle, [field]: 1 }) }).toEqual({ field, idle: false });
  }
  expect(isIdleReport({ ...idle, oldest_due_at: '2026-11-24T00:00:00.000Z' })).toBe(false);
});

test('idle passes: the first is logged, then none until IDLE_REPORT_EVERY_MS has passed (once a minute on AWS still logs every pass)', () => {
  const t0 = 1_000_000;
  expect(shouldLogReport(idle, null, t0)).toBe(true);
  expect(shouldLogReport(idle, t0, t0 + 2_000)).toBe(false);
  expect(shouldLogReport(idle, t0, t0 + IDLE_REPORT_EVERY_MS - 1)).toBe(false);
  expect(shouldLogReport(idle, t0, t0 + IDLE_REPORT_EVERY_MS)).toBe(true);
  expect(IDLE_REPORT_EVERY_MS).toBeLessThan(60_000);
});

test('a pass that did something is always logged, with its figures as metrics', () => {
  const busy = { ...idle, examined: 3, redriven_queued: 2 };
  expect(shouldLogReport(busy, 1_000, 1_001)).toBe(true);
  expect(JSON.parse(reconcileMetricsLine(busy, new Date(5_000)))).toMatchObject({
    Task: 'reconciler',
    Redriven: 2,
    examined: 3,
    _aws: { Timestamp: 5_000 },
  });
});
