/**
 * CSV as spreadsheets write it (RFC 4180): cells separated by commas, a cell in double quotes may hold
 * commas, quotes (doubled) and line breaks; rows end with CRLF or LF. Reading keeps going past a bad row
 * (an unterminated quote, text after a closing quote) and reports it with its line number, so an import
 * can refuse that line and take the others.
 */

export interface CsvRow {
  /** The line the row starts on (1-based). */
  line: number;
  cells: string[];
}

export interface CsvBadLine {
  line: number;
  reason: string;
}

export interface CsvRead {
  rows: CsvRow[];
  bad: CsvBadLine[];
}

/** Every row of `text`; blank lines are skipped. A bad row is reported and skipped, up to the end of its line. */
export function readCsv(text: string): CsvRead {
  const rows: CsvRow[] = [];
  const bad: CsvBadLine[] = [];
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let i = 0;
  let line = 1;
  while (i < source.length) {
    const startLine = line;
    const cells: string[] = [];
    let cell = '';
    let problem: string | undefined;
    let endOfRow = false;
    let cellStart = true;
    let quoted = false;
    while (i < source.length && !endOfRow) {
      const c = source[i]!;
      if (cellStart && (c === ' ' || c === '\t')) {
        i++;
        continue;
      }
      if (cellStart && c === '"') {
        quoted = true;
        cellStart = false;
        i++;
        // Inside quotes until the closing quote (a doubled quote is one quote).
        let closed = false;
        while (i < source.length) {
          const q = source[i]!;
          if (q === '"') {
            if (source[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            closed = true;
            i++;
            break;
          }
          if (q === '\n') line++;
          cell += q;
          i++;
        }
        if (!closed) {
          problem = 'a quoted field is not closed (a " is missing)';
          break;
        }
        const next = source[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          problem = `text after a closing quote (a " inside a quoted field must be doubled: "")`;
          break;
        }
        continue;
      }
      cellStart = false;
      if (c === ',') {
        cells.push(quoted ? cell : cell.trim());
        cell = '';
        cellStart = true;
        quoted = false;
        i++;
      } else if (c === '\r' && source[i + 1] === '\n') {
        i += 2;
        line++;
        endOfRow = true;
      } else if (c === '\n') {
        i++;
        line++;
        endOfRow = true;
      } else if (c === '"') {
        problem = 'a quote inside an unquoted field (quote the whole field and double the quote: "a ""b""")';
        break;
      } else {
        cell += c;
        i++;
      }
    }
    if (problem) {
      bad.push({ line: startLine, reason: problem });
      // Skip to the end of the line the problem is on.
      while (i < source.length && source[i] !== '\n') i++;
      if (i < source.length) {
        i++;
        line++;
      }
      continue;
    }
    cells.push(quoted ? cell : cell.trim());
    if (cells.length === 1 && cells[0] === '' && !quoted) continue; // blank line
    rows.push({ line: startLine, cells });
  }
  return { rows, bad };
}

/** One cell as written: quoted when it holds a comma, quote or line break; a leading = + - @ gets a ' (no formulas in spreadsheets). */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as CSV text, CRLF line ends (RFC 4180), a final line end included. */
export function writeCsv(rows: (string | number | boolean | null | undefined)[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + (rows.length ? '\r\n' : '');
}
