import { DAY_MS, describeMs, durationWithin, HOUR_MS, MINUTE_MS, parseDuration, WEEK_MS } from '#shared/domain/automations/duration';

describe('parseDuration', () => {
  it.each([
    ['1 minute', MINUTE_MS],
    ['30 minutes', 30 * MINUTE_MS],
    ['1 hour', HOUR_MS],
    ['12 hours', 12 * HOUR_MS],
    ['1 day', DAY_MS],
    ['2 days', 2 * DAY_MS],
    ['1 week', WEEK_MS],
    ['3 weeks', 3 * WEEK_MS],
    ['2 DAYS', 2 * DAY_MS],
    ['  5   Minutes ', 5 * MINUTE_MS],
    ['P2D', 2 * DAY_MS],
    ['PT30M', 30 * MINUTE_MS],
    ['PT1H', HOUR_MS],
    ['PT90S', 90_000],
    ['P1DT12H', 36 * HOUR_MS],
    ['P1DT1H1M1S', DAY_MS + HOUR_MS + MINUTE_MS + 1000],
    ['P1W', WEEK_MS],
    ['P52W', 52 * WEEK_MS],
  ])('reads %j', (value, ms) => {
    expect(parseDuration(value)).toEqual({ ok: true, ms });
  });

  it.each([
    '',
    'soon',
    '2',
    'days',
    '2 fortnights',
    '1.5 days',
    '-1 day',
    'P',
    'PT',
    'P1H',
    'P2DT',
    'p2d',
    'P1.5D',
    '2d',
    '1 day 2 hours',
    'P1W2D',
    '1234567890 days',
  ])('refuses %j naming the accepted forms', (value) => {
    const result = parseDuration(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/"30 minutes".*"P2D"/);
  });

  it.each(['1 month', '2 years', 'P1M', 'P1Y', 'P1Y2M3D'])('refuses calendar units %j, asking for days', (value) => {
    const result = parseDuration(value);
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/no fixed length; write days instead/) });
  });
});

describe('durationWithin', () => {
  it('accepts the bounds themselves and refuses one step past them', () => {
    expect(durationWithin('1 minute', MINUTE_MS, 365 * DAY_MS)).toEqual({ ok: true, ms: MINUTE_MS });
    expect(durationWithin('365 days', MINUTE_MS, 365 * DAY_MS)).toEqual({ ok: true, ms: 365 * DAY_MS });
    expect(durationWithin('PT59S', MINUTE_MS, 365 * DAY_MS)).toEqual({
      ok: false,
      message: '"PT59S" is shorter than the minimum of 1 minute',
    });
    expect(durationWithin('0 minutes', MINUTE_MS, 365 * DAY_MS)).toEqual({
      ok: false,
      message: '"0 minutes" is shorter than the minimum of 1 minute',
    });
    expect(durationWithin('366 days', MINUTE_MS, 365 * DAY_MS)).toEqual({
      ok: false,
      message: '"366 days" is longer than the maximum of 365 days',
    });
    expect(durationWithin('P53W', MINUTE_MS, 365 * DAY_MS).ok).toBe(false);
    expect(durationWithin('garbage', MINUTE_MS, DAY_MS).ok).toBe(false);
  });

  it('describes lengths in their largest whole unit', () => {
    expect(describeMs(30 * DAY_MS)).toBe('30 days');
    expect(describeMs(2 * WEEK_MS)).toBe('2 weeks');
    expect(describeMs(MINUTE_MS)).toBe('1 minute');
    expect(describeMs(90 * MINUTE_MS)).toBe('90 minutes');
  });
});
