/** Tenant reservations (ramp and daily_limit), the 429 daily_ramp_limit, and bringing the ramp forward once a day. */
import { dailyRampLimitError, parseTenantScope, tenantReservations, tenantScope } from '#shared/domain/tenants/limits';
import { emptyCounts } from '#shared/domain/tenants/stats';
import type { Tenant } from '#shared/domain/tenants/tenant';
import type { StoredTenant } from '#shared/adapters/store/tenants';
import { rampForToday, type TenantRampDeps } from '#shared/usecases/tenants/tenant-ramp';

const NOW = new Date('2026-11-22T15:00:00.000Z');

describe('tenant reservations', () => {
  it('caps the send stream by the ramp and all streams by daily_limit, for today, resetting at 00:00 UTC', () => {
    const reservations = tenantReservations({ id: 'ten_1', daily_limit: 500 }, { stage: 2, day: '2026-11-22' }, 'product', NOW);
    expect(reservations).toEqual([
      {
        scope: 'TENANT:ten_1:product',
        period: 'DAY',
        periodValue: '2026-11-22',
        limit: 2000,
        resetsAt: '2026-11-23T00:00:00.000Z',
        expiresAt: expect.any(Number),
      },
      {
        scope: 'TENANT:ten_1:all',
        period: 'DAY',
        periodValue: '2026-11-22',
        limit: 500,
        resetsAt: '2026-11-23T00:00:00.000Z',
        expiresAt: expect.any(Number),
      },
    ]);
    // A complete ramp still counts the stream (uncapped); no daily_limit, no `all` counter.
    expect(tenantReservations({ id: 'ten_1', daily_limit: null }, { stage: 12, day: '2026-11-22' }, 'transactional', NOW)).toEqual([
      expect.objectContaining({ scope: 'TENANT:ten_1:transactional', limit: null }),
    ]);
    expect(parseTenantScope(tenantScope('ten_1', 'all'))).toEqual({ tenantId: 'ten_1', counter: 'all' });
    expect(parseTenantScope('PLAN')).toBeNull();
  });

  it('answers 429 daily_ramp_limit with every detail field of the spec', () => {
    const [reservation] = tenantReservations({ id: 'ten_1', daily_limit: null }, { stage: 1, day: '2026-11-22' }, 'product', NOW);
    const error = dailyRampLimitError({ external_id: 'acme' }, { stage: 1, day: '2026-11-22' }, 'product', reservation!, 998, 3);
    expect(error).toMatchObject({ status: 429, code: 'daily_ramp_limit' });
    expect(error.details).toEqual({
      tenant: 'acme',
      stream: 'product',
      daily_limit: 1000,
      used_today: 998,
      recipients: 3,
      ramp_stage: 1,
      resets_at: '2026-11-23T00:00:00.000Z',
      limited_by: 'ramp',
    });
  });
});

describe('rampForToday', () => {
  const tenant = { id: 'ten_1', account_id: 'acc_1', external_id: 'acme', created_at: '2026-11-20T00:00:00.000Z' } as Tenant;
  function deps(over: { moved?: boolean; sent?: number; product?: number } = {}) {
    const writes: unknown[] = [];
    const d: TenantRampDeps = {
      tenants: {
        advanceRamp: async (_t, from, to) => {
          writes.push({ from, to });
          return !over.moved;
        },
        find: async () => ({ tenant, ramp: { stage: 5, day: '2026-11-22' }, deleting: false }),
      },
      tenantStats: { read: async () => [{ ...emptyCounts(), sent: over.sent ?? 600 }] },
      usage: { current: async (_a, reservation) => (reservation.scope.endsWith(':product') ? (over.product ?? 600) : 0) },
    };
    return { d, writes };
  }

  it('moves the stage on after a qualifying day and writes it conditionally', async () => {
    const { d, writes } = deps();
    const stored: StoredTenant = { tenant, ramp: { stage: 1, day: '2026-11-21' }, deleting: false };
    expect(await rampForToday(d, stored, NOW)).toEqual({ stage: 2, day: '2026-11-22' });
    expect(writes).toEqual([{ from: { stage: 1, day: '2026-11-21' }, to: { stage: 2, day: '2026-11-22' } }]);
  });

  it('reads nothing and writes nothing when today is already evaluated', async () => {
    const { d, writes } = deps();
    const stored: StoredTenant = { tenant, ramp: { stage: 3, day: '2026-11-22' }, deleting: false };
    expect(await rampForToday(d, stored, NOW)).toBe(stored.ramp);
    expect(writes).toEqual([]);
  });

  it('takes the state another send wrote first', async () => {
    const { d } = deps({ moved: true });
    expect(await rampForToday(d, { tenant, ramp: { stage: 1, day: '2026-11-21' }, deleting: false }, NOW)).toEqual({
      stage: 5,
      day: '2026-11-22',
    });
  });
});
