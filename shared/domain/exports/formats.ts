/**
 * The export's file formats (docs/exports.md, "Files"): NDJSON (one JSON object a line, each line ending
 * in \n; a part file is whole lines, so parts concatenate in order into the kind's file) and the
 * suppressions' CSV (RFC 4180: the header only in the first part, fields quoted when they hold a comma,
 * quote or line break).
 */
export function toNdjson(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

export const SUPPRESSION_CSV_COLUMNS = ['email', 'reason', 'scope', 'tenant', 'created_at', 'id'] as const;

export interface SuppressionCsvRow {
  email: string;
  reason: string;
  scope: string;
  tenant: string | null;
  created_at: string;
  id: string;
}

function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV lines (CRLF, as RFC 4180) of `rows`, with the header line when `header`. */
export function toSuppressionCsv(rows: readonly SuppressionCsvRow[], header: boolean): string {
  const lines = rows.map((row) => SUPPRESSION_CSV_COLUMNS.map((column) => csvField(row[column])).join(','));
  if (header) lines.unshift(SUPPRESSION_CSV_COLUMNS.join(','));
  return lines.map((line) => `${line}\r\n`).join('');
}
