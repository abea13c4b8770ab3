/** CSV reading and writing: quoted fields (commas, doubled quotes, line breaks), CRLF and LF, bad lines reported with their line number, round trips. */
import { csvCell, readCsv, writeCsv } from '#clients/cli/csv/csv';

describe('CSV', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, skipping blank lines and a BOM', () => {
    const text = '\ufeffemail,reason\r\n"a,b@example.com","say ""hi"""\r\n\r\nc@example.com, manual \n"multi\nline",x\n';
    expect(readCsv(text)).toEqual({
      rows: [
        { line: 1, cells: ['email', 'reason'] },
        { line: 2, cells: ['a,b@example.com', 'say "hi"'] },
        { line: 4, cells: ['c@example.com', 'manual'] },
        { line: 5, cells: ['multi\nline', 'x'] },
      ],
      bad: [],
    });
  });

  it('reports a bad line (a stray quote, text after a closing quote, an unclosed quote) and keeps reading the next ones', () => {
    const { rows, bad } = readCsv('ok@example.com\nbad"quote@example.com\n"closed"after,x\nfine@example.com\n"never closed\n');
    expect(rows.map((row) => row.cells[0])).toEqual(['ok@example.com', 'fine@example.com']);
    expect(bad.map((b) => b.line)).toEqual([2, 3, 5]);
    expect(bad[0]!.reason).toContain('a quote inside an unquoted field');
    expect(bad[1]!.reason).toContain('text after a closing quote');
    expect(bad[2]!.reason).toContain('not closed');
  });

  it('writes RFC 4180: quotes what needs it, doubles quotes, CRLF rows, no formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(
      writeCsv([
        ['email', 'tenant'],
        ['a@example.com', null],
      ]),
    ).toBe('email,tenant\r\na@example.com,\r\n');
  });

  it('reads back what it writes', () => {
    const rows = [
      ['email', 'note'],
      ['x@example.com', 'a, "quoted"\nvalue'],
      ['y@example.com', ''],
    ];
    expect(readCsv(writeCsv(rows)).rows.map((row) => row.cells)).toEqual(rows);
  });
});
