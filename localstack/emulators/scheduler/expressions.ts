/**
 * Schedule expressions. Only one-time `at(yyyy-mm-ddThh:mm:ss)` schedules are supported: the
 * wall-clock time is read in ScheduleExpressionTimezone (IANA name, default UTC) through Intl.
 * `rate(...)` and `cron(...)` are valid in AWS but rejected here with a ValidationException.
 */
import { validation } from './errors';

const AT = /^at\((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\)$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat | undefined {
  const cached = formatters.get(timeZone);
  if (cached) return cached;
  try {
    const f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
    return f;
  } catch {
    return undefined;
  }
}

export function isValidTimezone(timeZone: string): boolean {
  return formatterFor(timeZone) !== undefined;
}

/** Offset (ms) of `timeZone` from UTC at instant `utcMs`: local wall clock minus UTC. */
function offsetAt(f: Intl.DateTimeFormat, utcMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year ?? 0, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - Math.floor(utcMs / 1000) * 1000;
}

/** Instant (epoch ms) at which the wall-clock time `wallMs` (fields encoded as if UTC) occurs in `timeZone`. */
function wallTimeToInstant(wallMs: number, timeZone: string): number {
  const f = formatterFor(timeZone);
  if (!f) throw validation(`Invalid ScheduleExpressionTimezone ${timeZone}.`);
  let instant = wallMs - offsetAt(f, wallMs);
  // A second pass settles times near a DST change (the offset at the guess may differ).
  const second = offsetAt(f, instant);
  if (wallMs - second !== instant) instant = wallMs - second;
  return instant;
}

export interface OneTimeExpression {
  kind: 'at';
  /** Epoch ms when the schedule is due. */
  fireAt: number;
}

/** Parses a schedule expression; throws ValidationException for anything but a valid at(). */
export function parseScheduleExpression(expression: string, timezone: string | undefined): OneTimeExpression {
  const expr = expression.trim();
  if (/^(rate|cron)\(.*\)$/.test(expr)) {
    throw validation(
      `Schedule expression ${expression} is not supported by the local emulator: only one-time at() schedules are supported.`,
    );
  }
  const m = AT.exec(expr);
  if (!m) throw validation(`Invalid Schedule Expression ${expression}.`);
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw validation(`Invalid Schedule Expression ${expression}.`);
  }
  const tz = timezone ?? 'UTC';
  return { kind: 'at', fireAt: tz === 'UTC' ? wall : wallTimeToInstant(wall, tz) };
}

/** Formats an instant as the at() expression for `timeZone` (default UTC). Handy for callers and tests. */
export function atExpression(date: Date, timeZone = 'UTC'): string {
  const f = formatterFor(timeZone);
  if (!f) throw new Error(`Invalid time zone ${timeZone}`);
  const wall = new Date(Math.floor(date.getTime() / 1000) * 1000 + offsetAt(f, date.getTime()));
  return `at(${wall.toISOString().slice(0, 19)})`;
}
