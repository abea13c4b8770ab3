/** at() parsing and time zones (pure functions of the emulator). */
import { atExpression, parseScheduleExpression } from '#localstack/emulators/scheduler/expressions';

test('UTC is the default time zone', () => {
  expect(parseScheduleExpression('at(2030-03-04T05:06:07)', undefined).fireAt).toBe(Date.UTC(2030, 2, 4, 5, 6, 7));
  expect(parseScheduleExpression('at(2030-03-04T05:06:07)', 'UTC').fireAt).toBe(Date.UTC(2030, 2, 4, 5, 6, 7));
});

test.each([
  ['Asia/Kolkata', 'at(2030-01-15T12:00:00)', '2030-01-15T06:30:00.000Z'],
  ['America/New_York', 'at(2030-01-15T12:00:00)', '2030-01-15T17:00:00.000Z'], // EST, UTC-5
  ['America/New_York', 'at(2030-07-15T12:00:00)', '2030-07-15T16:00:00.000Z'], // EDT, UTC-4
  ['Europe/Paris', 'at(2030-07-15T00:30:00)', '2030-07-14T22:30:00.000Z'],
  ['Australia/Sydney', 'at(2030-01-01T00:00:00)', '2029-12-31T13:00:00.000Z'],
  ['Etc/GMT+5', 'at(2030-01-01T00:00:00)', '2030-01-01T05:00:00.000Z'],
])('%s: %s is %s', (tz, expression, iso) => {
  expect(new Date(parseScheduleExpression(expression, tz).fireAt).toISOString()).toBe(iso);
});

test('atExpression is the inverse of parsing', () => {
  const instant = new Date('2031-10-26T01:30:00Z');
  for (const tz of ['UTC', 'Europe/London', 'America/Los_Angeles', 'Asia/Tokyo']) {
    expect(parseScheduleExpression(atExpression(instant, tz), tz).fireAt).toBe(instant.getTime());
  }
});

test('invalid dates and other expressions are rejected with ValidationException', () => {
  for (const bad of ['at(2030-02-29T00:00:00)', 'at(2030-00-10T00:00:00)', 'at(2030-01-01T00:60:00)', 'at()', 'at(2030-01-01T00:00:00Z)']) {
    expect(() => parseScheduleExpression(bad, undefined)).toThrow(expect.objectContaining({ errorName: 'ValidationException' }));
  }
  expect(() => parseScheduleExpression('rate(1 minute)', undefined)).toThrow(/not supported by the local emulator/);
  expect(() => parseScheduleExpression('cron(0 12 * * ? *)', undefined)).toThrow(/not supported by the local emulator/);
  expect(parseScheduleExpression('at(2032-02-29T00:00:00)', undefined).fireAt).toBe(Date.UTC(2032, 1, 29));
});
