import { usageReservations } from '#shared/domain/accounts/limits';

describe('usage reservations', () => {
  const now = new Date('2026-11-30T23:59:59.000Z');
  it('caps free daily and monthly, sandbox on its own', () => {
    const free = usageReservations('free', true, now);
    expect(free.map((r) => [r.scope, r.period, r.periodValue, r.limit])).toEqual([
      ['PLAN', 'DAY', '2026-11-30', 100],
      ['PLAN', 'MONTH', '2026-11', 3000],
      ['SANDBOX', 'DAY', '2026-11-30', 100],
      ['SANDBOX', 'MONTH', '2026-11', 3000],
    ]);
    expect(free[0]!.resetsAt).toBe('2026-12-01T00:00:00.000Z');
    expect(free[1]!.resetsAt).toBe('2026-12-01T00:00:00.000Z');
  });
  it('counts but does not cap paid plans', () => {
    expect(usageReservations('pro', false, now).map((r) => r.limit)).toEqual([null, null]);
  });
});
