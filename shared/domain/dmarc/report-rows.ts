/**
 * A parsed report as it is stored (shared/adapters/store/dmarc-reports.ts): who sent it, the UTC day it
 * covers, and one row per source IP (and group), its records added up. Pure.
 *
 * - The day is the UTC day of the report's `date_range/begin` (receivers report whole UTC days; one
 *   whose range starts at another hour is counted on the day it starts).
 * - `dmarc_pass`: messages whose policy_evaluated DKIM or SPF passed (the DMARC-aligned outcome the
 *   receiver reports); `spf_aligned_pass`, `dkim_aligned_pass`: each alone; dispositions as applied.
 * - `group`: `ours` when the record shows the service's sending (./our-sending.ts), else `others`.
 */
import { groupOf, type OurSending, type SourceGroup } from './our-sending';
import type { AggregateReport, Disposition } from './report-schema';

export interface SourceRow {
  source_ip: string;
  group: SourceGroup;
  messages: number;
  dmarc_pass: number;
  spf_aligned_pass: number;
  dkim_aligned_pass: number;
  disposition: Record<Disposition, number>;
}

export interface ReportRows {
  /** Who sent it, as the report says (org_name). */
  reporter: string;
  reporter_email: string;
  report_id: string;
  /** The domain the report is about (policy_published/domain). */
  domain: string;
  day: string;
  begin: string;
  end: string;
  records: number;
  rows: SourceRow[];
}

export const dayOf = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

export function emptyRow(source_ip: string, group: SourceGroup): SourceRow {
  return {
    source_ip,
    group,
    messages: 0,
    dmarc_pass: 0,
    spf_aligned_pass: 0,
    dkim_aligned_pass: 0,
    disposition: { none: 0, quarantine: 0, reject: 0 },
  };
}

/** Adds `from`'s counts to `into` (same source and group). */
export function addRow(into: SourceRow, from: Omit<SourceRow, 'source_ip' | 'group'>): SourceRow {
  into.messages += from.messages;
  into.dmarc_pass += from.dmarc_pass;
  into.spf_aligned_pass += from.spf_aligned_pass;
  into.dkim_aligned_pass += from.dkim_aligned_pass;
  into.disposition.none += from.disposition.none;
  into.disposition.quarantine += from.disposition.quarantine;
  into.disposition.reject += from.disposition.reject;
  return into;
}

export function reportRows(report: AggregateReport, ours: OurSending): ReportRows {
  const bySource = new Map<string, SourceRow>();
  for (const record of report.record) {
    const { source_ip, count, policy_evaluated: evaluated } = record.row;
    const group = groupOf(record, ours);
    const key = `${group} ${source_ip}`;
    const row = bySource.get(key) ?? emptyRow(source_ip, group);
    bySource.set(key, row);
    const spf = evaluated.spf === 'pass' ? count : 0;
    const dkim = evaluated.dkim === 'pass' ? count : 0;
    addRow(row, {
      messages: count,
      dmarc_pass: spf || dkim ? count : 0,
      spf_aligned_pass: spf,
      dkim_aligned_pass: dkim,
      disposition: { none: 0, quarantine: 0, reject: 0, [evaluated.disposition]: count },
    });
  }
  const meta = report.report_metadata;
  return {
    reporter: meta.org_name,
    reporter_email: meta.email,
    report_id: meta.report_id,
    domain: report.policy_published.domain,
    day: dayOf(meta.date_range.begin),
    begin: new Date(meta.date_range.begin * 1000).toISOString(),
    end: new Date(meta.date_range.end * 1000).toISOString(),
    records: report.record.length,
    rows: [...bySource.values()].sort(
      (a, b) => b.messages - a.messages || a.source_ip.localeCompare(b.source_ip) || a.group.localeCompare(b.group),
    ),
  };
}
