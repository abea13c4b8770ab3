/**
 * Durations of automation steps (docs/automations.md, "Steps"): `delay.duration` and
 * `wait_for_event.timeout`. Pure: a string in, milliseconds (or the reason it is refused) out.
 *
 * Accepted forms:
 *   - `<n> <unit>`: a whole number and minute(s) | hour(s) | day(s) | week(s), e.g. "30 minutes",
 *     "1 hour", "2 days", "1 week" (case-insensitive, one or more spaces);
 *   - ISO 8601 without years or months: `PnW`, or `PnDTnHnMnS` with any of its parts, e.g. "P2D", "PT30M",
 *     "P1DT12H".
 * Months and years are refused (they have no fixed length): write days ("90 days", "P90D").
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

export const DURATION_FORMS = 'a number and a unit ("30 minutes", "2 hours", "3 days", "1 week") or ISO 8601 ("PT30M", "P2D", "P1W")';

export type DurationResult = { ok: true; ms: number } | { ok: false; message: string };

const UNITS: Record<string, number> = {
  minute: MINUTE_MS,
  minutes: MINUTE_MS,
  hour: HOUR_MS,
  hours: HOUR_MS,
  day: DAY_MS,
  days: DAY_MS,
  week: WEEK_MS,
  weeks: WEEK_MS,
};

const WORDS = /^(\d{1,9}) +([a-z]+)$/i;
const ISO_WEEKS = /^P(\d{1,9})W$/;
const ISO = /^P(?:(\d{1,9})D)?(?:T(?:(\d{1,9})H)?(?:(\d{1,9})M)?(?:(\d{1,9})S)?)?$/;
const ISO_CALENDAR = /^P(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T.*)?$/;

/** Milliseconds of `value`, or why it is not a duration (naming the accepted forms). */
export function parseDuration(value: string): DurationResult {
  const text = value.trim();
  const words = WORDS.exec(text);
  if (words) {
    const unit = UNITS[words[2]!.toLowerCase()];
    if (unit === undefined) {
      const calendar = /^(month|year)s?$/i.test(words[2]!);
      return {
        ok: false,
        message: calendar
          ? `months and years have no fixed length; write days instead (e.g. "90 days"), as ${DURATION_FORMS}`
          : `"${value}" is not a duration: write ${DURATION_FORMS}`,
      };
    }
    return { ok: true, ms: Number(words[1]) * unit };
  }
  const weeks = ISO_WEEKS.exec(text);
  if (weeks) return { ok: true, ms: Number(weeks[1]) * WEEK_MS };
  const iso = ISO.exec(text);
  if (iso && text !== 'P' && !text.endsWith('T')) {
    const [, d, h, m, s] = iso;
    return { ok: true, ms: Number(d ?? 0) * DAY_MS + Number(h ?? 0) * HOUR_MS + Number(m ?? 0) * MINUTE_MS + Number(s ?? 0) * 1000 };
  }
  if (ISO_CALENDAR.test(text) && /^P[^T]*[YM]/.test(text)) {
    return { ok: false, message: `ISO 8601 years and months have no fixed length; write days instead (e.g. "P90D"), as ${DURATION_FORMS}` };
  }
  return { ok: false, message: `"${value}" is not a duration: write ${DURATION_FORMS}` };
}

/** Describes a length in the largest whole unit, for messages ("365 days", "30 minutes"). */
export function describeMs(ms: number): string {
  for (const [unit, size] of [
    ['week', WEEK_MS],
    ['day', DAY_MS],
    ['hour', HOUR_MS],
    ['minute', MINUTE_MS],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms / size === 1 ? '' : 's'}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}

/** `parseDuration` within [minMs, maxMs]: the message says the bound that was crossed. */
export function durationWithin(value: string, minMs: number, maxMs: number): DurationResult {
  const parsed = parseDuration(value);
  if (!parsed.ok) return parsed;
  if (parsed.ms < minMs) return { ok: false, message: `"${value}" is shorter than the minimum of ${describeMs(minMs)}` };
  if (parsed.ms > maxMs) return { ok: false, message: `"${value}" is longer than the maximum of ${describeMs(maxMs)}` };
  return parsed;
}
