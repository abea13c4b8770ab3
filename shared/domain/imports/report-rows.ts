/**
 * GET /migrations/{id}/report: the import's report as rows, one per domain, webhook and template, one
 * per suppression count (imported by reason, already suppressed, skipped by reason, failed) and one per
 * unreadable resource. The CSV and the JSON (`?format=json`) are the same rows, so they always agree.
 */
import type { ReportPart } from './report';

export const REPORT_COLUMNS = ['resource', 'item', 'status', 'id', 'count', 'message'] as const;

export interface ReportRow {
  resource: string;
  item: string;
  status: string;
  id: string;
  count: number;
  message: string;
}

export function reportRows(report: ReportPart): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const item of report.domains.items)
    rows.push({
      resource: 'domains',
      item: item.name,
      status: item.status,
      id: item.domain_id ?? '',
      count: 1,
      message: item.message ?? '',
    });
  for (const item of report.webhooks.items) {
    const unmapped = item.unmapped_events.length ? `unmapped: ${item.unmapped_events.join(' ')}` : '';
    rows.push({
      resource: 'webhooks',
      item: item.url,
      status: item.status,
      id: item.webhook_id ?? '',
      count: 1,
      message: [item.message ?? '', unmapped].filter(Boolean).join('; '),
    });
  }
  for (const item of report.templates.items) {
    rows.push({
      resource: 'templates',
      item: item.alias,
      status: item.status,
      id: item.template_id ?? '',
      count: 1,
      message: [item.message ?? '', ...item.notes].filter(Boolean).join('; '),
    });
  }
  const totals = report.suppressions.totals;
  for (const reason of ['bounce', 'complaint', 'unsubscribe', 'manual', 'product_opt_out'] as const) {
    if (totals[reason] > 0)
      rows.push({ resource: 'suppressions', item: reason, status: 'imported', id: '', count: totals[reason], message: '' });
  }
  if (totals.already_suppressed > 0)
    rows.push({
      resource: 'suppressions',
      item: 'already_suppressed',
      status: 'skipped',
      id: '',
      count: totals.already_suppressed,
      message: 'already on the list',
    });
  for (const [reason, count] of Object.entries(report.suppressions.skipped_reasons).sort())
    rows.push({ resource: 'suppressions', item: reason, status: 'skipped', id: '', count, message: '' });
  if (totals.failed > 0)
    rows.push({ resource: 'suppressions', item: 'failed', status: 'failed', id: '', count: totals.failed, message: '' });
  for (const error of report.errors)
    rows.push({ resource: error.resource, item: '', status: 'error', id: '', count: 0, message: error.message });
  return rows;
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a cell a spreadsheet would run as a
 * formula (starting with = + - @, tab or CR) gets a leading apostrophe.
 */
function cell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: readonly ReportRow[]): string {
  const lines = [REPORT_COLUMNS.join(',')];
  for (const row of rows) lines.push(REPORT_COLUMNS.map((column) => cell(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
