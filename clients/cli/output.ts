/**
 * Text output for people (aligned tables, `key: value` lines) and JSON for scripts (`--json`: the API's
 * answer as it came, one JSON document per command, or one per line for streams like `events tail`).
 */
import type { CliIo } from './io';

export type Cell = string | number | boolean | null | undefined;

const text = (cell: Cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell));

/** An aligned table with a header row; an empty table prints `empty` instead. */
export function formatTable(headers: string[], rows: Cell[][], empty = '(none)'): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) => row.map(text));
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[line(headers.map((h) => h.toUpperCase())), ...cells.map(line)].join('\n')}\n`;
}

/** `key: value` lines, the keys aligned; null and undefined values are left out. */
export function formatFields(fields: [string, Cell | Cell[]][]): string {
  const shown = fields.filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0));
  const width = Math.max(0, ...shown.map(([key]) => key.length));
  return shown
    .map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${Array.isArray(value) ? value.map(text).join(', ') : text(value)}\n`)
    .join('');
}

export function printJson(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** One JSON document on one line (NDJSON), for streams. */
export function printJsonLine(io: CliIo, value: unknown): void {
  io.out(`${JSON.stringify(value)}\n`);
}
