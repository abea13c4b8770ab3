/**
 * A pull endpoint's door with in-memory fakes of its ports (the API end to end: test/integration/webhook-listener.test.ts):
 * a feed read records `last_pulled_at` at most once a minute; a push endpoint has no feed (409); a report is logged as
 * the next attempt (2xx succeeded, else failed) and taken out of the feed, once; the result body's rules.
 */
import { ConflictError, NotFoundError } from '#shared/domain/errors';
import { listenerResultSchema, PULL_MARK_EVERY_MS, pullMarkDue, takesDeliveries } from '#shared/domain/webhooks/listener';
import { readListenerFeed, reportListenerResult, type ListenerFeedDeps } from '#shared/usecases/webhooks/listener-feed';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const principal = {
  account: { id: 'acc_1' },
  credential: { kind: 'api_key', id: 'key_1', scopes: ['full'], tenant: null, allowed_domains: null },
} as never;

function world(endpoint: Record<string, unknown>, delivery: Record<string, unknown> | null = null) {
  const marks: string[][] = [];
  const attempts: { attempt: any; next: any; options: any }[] = [];
  let recordTakes = true;
  const stored = () => ({
    endpoint: { id: 'wh_1', account_id: 'acc_1', enabled: true, tenants: null, created_at: ago(3_600_000), ...endpoint } as never,
    sealedSecret: 'sealed',
    previousSealedSecret: null,
  });
  const storedDelivery = () => (delivery ? ({ id: 'whd_1', account_id: 'acc_1', attempts: [], ...delivery } as never) : null);
  const deps: ListenerFeedDeps = {
    webhooks: {
      get: async () => stored(),
      markPulled: async (...args: string[]) => {
        marks.push(args);
        return true;
      },
    },
    webhookDeliveries: {
      listFeed: async () => ({ items: [], next_cursor: null }),
      get: async () => storedDelivery(),
      getWithEndpoint: async () => ({ delivery: storedDelivery(), stored: stored() }),
      recordAttempt: async (_wh: string, _d: string, attempt: unknown, next: unknown, options: unknown) => {
        attempts.push({ attempt, next, options });
        return recordTakes;
      },
    },
    clock: { now: () => NOW },
  };
  return { deps, marks, attempts, refuseRecord: () => (recordTakes = false) };
}

describe('the feed read', () => {
  it('records the read when the last record is a minute old or absent, not more often', async () => {
    for (const [last, recorded] of [
      [null, true],
      [ago(PULL_MARK_EVERY_MS), true],
      [ago(PULL_MARK_EVERY_MS - 1), false],
    ] as const) {
      const { deps, marks } = world({ delivery: 'pull', last_pulled_at: last });
      await readListenerFeed(deps, principal, 'wh_1', { limit: 25 });
      expect(marks).toEqual(recorded ? [['acc_1', 'wh_1', NOW.toISOString(), ago(PULL_MARK_EVERY_MS)]] : []);
    }
  });

  it('answers 409 for a push endpoint (it has no feed)', async () => {
    const { deps } = world({ delivery: 'push', last_pulled_at: null });
    await expect(readListenerFeed(deps, principal, 'wh_1', { limit: 25 })).rejects.toThrow(ConflictError);
  });
});

describe('the listener’s report', () => {
  it('logs a 2xx as the next attempt, succeeded, out of the feed; anything else failed', async () => {
    for (const [status_code, status] of [
      [204, 'succeeded'],
      [500, 'failed'],
      [null, 'failed'],
    ] as const) {
      const { deps, attempts } = world({ delivery: 'pull', last_pulled_at: null }, { status: 'pending', attempts: [{ attempt: 1 }] });
      const result = { status_code, duration_ms: 4.6, error: status_code === null ? 'ECONNREFUSED' : null, response_excerpt: null };
      const delivery = await reportListenerResult(deps, principal, 'wh_1', 'whd_1', result);
      expect(delivery.status).toBe(status);
      expect(attempts).toEqual([
        {
          attempt: { attempt: 2, at: NOW.toISOString(), status_code, duration_ms: 5, error: result.error, response_excerpt: null },
          next: { status, nextAttemptAt: null },
          options: { fromFeed: true },
        },
      ]);
    }
  });

  it('answers 409 for a delivery reported already, or one a concurrent report took; 404 for an unknown one', async () => {
    const reported = world({ delivery: 'pull', last_pulled_at: null }, { status: 'succeeded' });
    const result = { status_code: 200, duration_ms: 1, error: null, response_excerpt: null };
    await expect(reportListenerResult(reported.deps, principal, 'wh_1', 'whd_1', result)).rejects.toThrow(ConflictError);
    const raced = world({ delivery: 'pull', last_pulled_at: null }, { status: 'pending' });
    raced.refuseRecord();
    await expect(reportListenerResult(raced.deps, principal, 'wh_1', 'whd_1', result)).rejects.toThrow(/reported already/);
    const unknown = world({ delivery: 'pull', last_pulled_at: null }, null);
    await expect(reportListenerResult(unknown.deps, principal, 'wh_1', 'whd_1', result)).rejects.toThrow(NotFoundError);
  });

  it('takes a status or an error, in bounds', () => {
    expect(listenerResultSchema.safeParse({ status_code: 200 }).success).toBe(true);
    expect(listenerResultSchema.safeParse({ status_code: null, error: 'ECONNREFUSED' }).success).toBe(true);
    for (const bad of [
      {},
      { status_code: null },
      { status_code: 99 },
      { status_code: 200, extra: 1 },
      { status_code: 200, error: 'x'.repeat(501) },
    ])
      expect(listenerResultSchema.safeParse(bad).success).toBe(false);
  });
});

describe('listener policy', () => {
  it('a push endpoint always takes deliveries; a pull one within 10 minutes of its last read (or creation)', () => {
    const base = { created_at: ago(3_600_000) };
    expect(takesDeliveries({ ...base, delivery: 'push', last_pulled_at: null }, NOW)).toBe(true);
    expect(takesDeliveries({ ...base, delivery: 'pull', last_pulled_at: ago(9 * 60_000) }, NOW)).toBe(true);
    expect(takesDeliveries({ ...base, delivery: 'pull', last_pulled_at: ago(10 * 60_000) }, NOW)).toBe(false);
    expect(takesDeliveries({ ...base, delivery: 'pull', last_pulled_at: null }, NOW)).toBe(false);
    expect(pullMarkDue({ last_pulled_at: null }, NOW)).toBe(true);
  });
});
