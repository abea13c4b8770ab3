/**
 * The figures of GET /domains/{id}/dmarc from the stored rows of a date range: totals (all, ours,
 * others), one entry per UTC day of the range (zeros included), and the sources, each source IP's rows
 * of every report added up, most messages first. Pure.
 */
import { addRow, emptyRow, type SourceRow } from './report-rows';
import { SOURCE_GROUPS, type SourceGroup } from './our-sending';
import type { Disposition } from './report-schema';

/** A stored row with the report it came from. */
export interface DatedRow extends SourceRow {
  day: string;
  reporter: string;
}

export interface Figures {
  messages: number;
  dmarc_pass: number;
  spf_aligned_pass: number;
  dkim_aligned_pass: number;
  /** dmarc_pass / messages (0 when there are none), to 4 decimals. */
  pass_rate: number;
  disposition: Record<Disposition, number>;
}

export interface DayFigures {
  day: string;
  messages: number;
  dmarc_pass: number;
  ours: { messages: number; dmarc_pass: number };
  others: { messages: number; dmarc_pass: number };
}

export interface SourceFigures extends Figures {
  source_ip: string;
  group: SourceGroup;
  /** The reporters (org_name) that counted it, at most MAX_SOURCE_REPORTERS, alphabetical. */
  reporters: string[];
  /** UTC days of the range with messages from it. */
  days: number;
}

export const MAX_SOURCE_REPORTERS = 10;

export const rate = (pass: number, total: number) => (total === 0 ? 0 : Math.round((pass / total) * 10_000) / 10_000);

function figuresOf(row: Omit<SourceRow, 'source_ip' | 'group'>): Figures {
  return {
    messages: row.messages,
    dmarc_pass: row.dmarc_pass,
    spf_aligned_pass: row.spf_aligned_pass,
    dkim_aligned_pass: row.dkim_aligned_pass,
    pass_rate: rate(row.dmarc_pass, row.messages),
    disposition: { ...row.disposition },
  };
}

/** Every UTC day from `since` to `until` (YYYY-MM-DD, both included). */
export function daysBetween(since: string, until: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${since}T00:00:00Z`); at <= Date.parse(`${until}T00:00:00Z`); at += 86_400_000)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

export interface RangeFigures {
  totals: Figures;
  ours: Figures;
  others: Figures;
  reports: number;
  reporters: string[];
  days: DayFigures[];
  /** Every source, most messages first (then by IP, then ours before others). */
  sources: SourceFigures[];
}

export function rangeFigures(rows: readonly DatedRow[], since: string, until: string, reports: number): RangeFigures {
  const total = emptyRow('', 'ours');
  const groups: Record<SourceGroup, SourceRow> = { ours: emptyRow('', 'ours'), others: emptyRow('', 'others') };
  const days = new Map(
    daysBetween(since, until).map((day): [string, DayFigures] => [
      day,
      { day, messages: 0, dmarc_pass: 0, ours: { messages: 0, dmarc_pass: 0 }, others: { messages: 0, dmarc_pass: 0 } },
    ]),
  );
  const sources = new Map<string, { row: SourceRow; reporters: Set<string>; days: Set<string> }>();
  const reporters = new Set<string>();
  for (const row of rows) {
    addRow(total, row);
    addRow(groups[row.group], row);
    reporters.add(row.reporter);
    const day = days.get(row.day);
    if (day) {
      day.messages += row.messages;
      day.dmarc_pass += row.dmarc_pass;
      day[row.group].messages += row.messages;
      day[row.group].dmarc_pass += row.dmarc_pass;
    }
    const key = `${row.group} ${row.source_ip}`;
    const source = sources.get(key) ?? { row: emptyRow(row.source_ip, row.group), reporters: new Set<string>(), days: new Set<string>() };
    sources.set(key, source);
    addRow(source.row, row);
    source.reporters.add(row.reporter);
    if (row.messages > 0) source.days.add(row.day);
  }
  const order = (a: SourceFigures, b: SourceFigures) =>
    b.messages - a.messages || a.source_ip.localeCompare(b.source_ip) || SOURCE_GROUPS.indexOf(a.group) - SOURCE_GROUPS.indexOf(b.group);
  return {
    totals: figuresOf(total),
    ours: figuresOf(groups.ours),
    others: figuresOf(groups.others),
    reports,
    reporters: [...reporters].sort(),
    days: [...days.values()],
    sources: [...sources.values()]
      .map(({ row, reporters: by, days: on }) => ({
        source_ip: row.source_ip,
        group: row.group,
        ...figuresOf(row),
        reporters: [...by].sort().slice(0, MAX_SOURCE_REPORTERS),
        days: on.size,
      }))
      .sort(order),
  };
}

/** Where a page of sources starts: after the source with these (messages, ip, group). */
export interface SourceCursor {
  messages: number;
  source_ip: string;
  group: SourceGroup;
}

/** The sources after `cursor` in their order (most messages first, then IP, then group). */
export function sourcesAfter(sources: readonly SourceFigures[], cursor: SourceCursor | null): SourceFigures[] {
  if (!cursor) return [...sources];
  const after = (source: SourceFigures) =>
    source.messages < cursor.messages ||
    (source.messages === cursor.messages &&
      (source.source_ip.localeCompare(cursor.source_ip) > 0 ||
        (source.source_ip === cursor.source_ip && SOURCE_GROUPS.indexOf(source.group) > SOURCE_GROUPS.indexOf(cursor.group))));
  return sources.filter(after);
}
