/** The tenant ramp arithmetic: limits per stage, qualifying days, advancing across UTC days. */
import {
  advanceRamp,
  dayQualifies,
  dayToEvaluate,
  nextUtcMidnight,
  rampLimits,
  rampStreamOf,
  rampView,
  RAMP_LAST_STAGE,
  type RampDay,
} from '#shared/domain/tenants/ramp';

const day = (over: Partial<RampDay> & { day: string }): RampDay => ({
  used: { transactional: 0, product: 0 },
  sent: 0,
  bounced: 0,
  complained: 0,
  ...over,
});

describe('tenant ramp', () => {
  it('starts at 1,000 product and 3,000 transactional recipients and doubles per stage until complete', () => {
    expect(rampLimits(1)).toEqual({ transactional: 3000, product: 1000 });
    expect(rampLimits(2)).toEqual({ transactional: 6000, product: 2000 });
    expect(rampLimits(RAMP_LAST_STAGE)).toEqual({ transactional: 3000 * 1024, product: 1000 * 1024 });
    expect(rampLimits(RAMP_LAST_STAGE + 1)).toBeNull();
  });

  it('counts transactional email against the transactional stream and everything else against product', () => {
    expect(rampStreamOf('transactional')).toBe('transactional');
    expect(rampStreamOf('product')).toBe('product');
    expect(rampStreamOf('newsletter')).toBe('product');
  });

  it('qualifies a day with half of one stream used, bounces under 2% and complaints under 0.1%', () => {
    const limits = rampLimits(1)!;
    expect(dayQualifies(day({ day: 'd', used: { transactional: 0, product: 500 }, sent: 500 }), limits)).toBe(true);
    expect(dayQualifies(day({ day: 'd', used: { transactional: 1500, product: 0 }, sent: 1500 }), limits)).toBe(true);
    expect(dayQualifies(day({ day: 'd', used: { transactional: 1499, product: 499 }, sent: 1998 }), limits)).toBe(false);
    // 2% bounces exactly is not under 2%; 0.1% complaints exactly is not under 0.1%.
    expect(dayQualifies(day({ day: 'd', used: { transactional: 0, product: 1000 }, sent: 1000, bounced: 19 }), limits)).toBe(true);
    expect(dayQualifies(day({ day: 'd', used: { transactional: 0, product: 1000 }, sent: 1000, bounced: 20 }), limits)).toBe(false);
    expect(dayQualifies(day({ day: 'd', used: { transactional: 0, product: 1000 }, sent: 1000, complained: 1 }), limits)).toBe(false);
    expect(dayQualifies(day({ day: 'd', used: { transactional: 0, product: 2000 }, sent: 2000, complained: 1 }), limits)).toBe(true);
  });

  it('advances one stage on the first send after a qualifying day, and only then', () => {
    const start = { stage: 1, day: '2026-11-20' };
    const busy = day({ day: '2026-11-20', used: { transactional: 0, product: 600 }, sent: 600 });
    expect(dayToEvaluate(start, '2026-11-20')).toBeNull();
    expect(advanceRamp(start, '2026-11-20', busy)).toBe(start);
    expect(dayToEvaluate(start, '2026-11-21')).toBe('2026-11-20');
    expect(advanceRamp(start, '2026-11-21', busy)).toEqual({ stage: 2, day: '2026-11-21' });
    // A gap of quiet days changes nothing more: only the last day with sends counts.
    expect(advanceRamp(start, '2026-12-15', busy)).toEqual({ stage: 2, day: '2026-12-15' });
    // A quiet or poor day keeps the stage.
    expect(advanceRamp(start, '2026-11-21', null)).toEqual({ stage: 1, day: '2026-11-21' });
    expect(advanceRamp(start, '2026-11-21', { ...busy, bounced: 30 })).toEqual({ stage: 1, day: '2026-11-21' });
    // Figures of another day than the state's are not used.
    expect(advanceRamp(start, '2026-11-22', { ...busy, day: '2026-11-21' })).toEqual({ stage: 1, day: '2026-11-22' });
    // A clock that went back never lowers or re-evaluates.
    expect(advanceRamp({ stage: 3, day: '2026-11-22' }, '2026-11-21', busy)).toEqual({ stage: 3, day: '2026-11-22' });
  });

  it('completes after qualifying at the last stage, and a complete ramp has no days to evaluate', () => {
    const last = { stage: RAMP_LAST_STAGE, day: '2026-11-20' };
    const busy = day({ day: '2026-11-20', used: { transactional: 0, product: 600_000 }, sent: 600_000 });
    const done = advanceRamp(last, '2026-11-21', busy);
    expect(done.stage).toBe(RAMP_LAST_STAGE + 1);
    expect(dayToEvaluate(done, '2026-11-25')).toBeNull();
    expect(advanceRamp(done, '2026-11-25', null)).toEqual({ stage: RAMP_LAST_STAGE + 1, day: '2026-11-25' });
  });

  it('shows the spec ramp object, resetting at the next 00:00 UTC', () => {
    const now = new Date('2026-11-22T23:59:59.999Z');
    expect(nextUtcMidnight(now).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(rampView({ stage: 2, day: '2026-11-22' }, { transactional: 5, product: 7 }, now)).toEqual({
      object: 'tenant_ramp',
      active: true,
      stage: 2,
      daily_limit: { transactional: 6000, product: 2000 },
      used_today: { transactional: 5, product: 7 },
      completed: false,
      resets_at: '2026-11-23T00:00:00.000Z',
    });
    expect(rampView({ stage: RAMP_LAST_STAGE + 1, day: '2026-11-22' }, { transactional: 0, product: 0 }, now)).toMatchObject({
      active: false,
      completed: true,
      daily_limit: null,
      stage: RAMP_LAST_STAGE,
    });
  });
});
