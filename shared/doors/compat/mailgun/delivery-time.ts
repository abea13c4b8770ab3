/**
 * `o:deliverytime`: Mailgun takes an RFC 2822 date (`Fri, 14 Oct 2030 23:10:10 -0000`), which becomes our
 * `scheduled_at` (ISO 8601 UTC). The day name is optional, seconds are optional, the zone is a numeric
 * offset or one of RFC 2822's names (UT, GMT, EST, ...). Pure; the send core checks the time is ahead.
 */
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONES: Readonly<Record<string, number>> = {
  ut: 0,
  utc: 0,
  gmt: 0,
  z: 0,
  est: -5,
  edt: -4,
  cst: -6,
  cdt: -5,
  mst: -7,
  mdt: -6,
  pst: -8,
  pdt: -7,
};
const RFC_2822 =
  /^\s*(?:(?:mon|tue|wed|thu|fri|sat|sun),\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([+-]\d{4}|[a-z]{1,3})\s*$/i;

/** The instant as ISO 8601 UTC, or null when the text is not an RFC 2822 date. */
export function parseRfc2822Date(text: string): string | null {
  const match = RFC_2822.exec(text);
  if (!match) return null;
  const [, day, monthName, year, hour, minute, second, zone] = match;
  const month = MONTHS.indexOf(monthName!.toLowerCase());
  if (month < 0) return null;
  let offsetMinutes: number;
  if (/^[+-]\d{4}$/.test(zone!)) {
    const sign = zone!.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(3, 5)));
  } else {
    const hours = ZONES[zone!.toLowerCase()];
    if (hours === undefined) return null;
    offsetMinutes = hours * 60;
  }
  const [d, h, m, s] = [Number(day), Number(hour), Number(minute), Number(second ?? '0')];
  if (d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return null;
  const utc = Date.UTC(Number(year), month, d, h, m, Math.min(s, 59)) - offsetMinutes * 60_000;
  const check = new Date(Date.UTC(Number(year), month, d));
  if (check.getUTCDate() !== d) return null; // 31 Feb
  return new Date(utc).toISOString();
}
