/**
 * `npm run docs:data`: writes the key layout's tables (./data-table.ts) into docs/reference/data.md between
 * its markers, so the reference is what the declarations say (test/unit/docs/data-table.test.ts fails while
 * the file is not what this writes). `--check` only compares, exiting 1 when the file is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataTables } from './data-table';

export const DATA_DOC_FILE = resolve(__dirname, '..', '..', '..', '..', 'docs', 'reference', 'data.md');

export const GENERATED_START = '<!-- generated: npm run docs:data -->';
export const GENERATED_END = '<!-- end generated -->';

/** The page with its generated part (between the markers) replaced by the tables the declarations make. */
export function withDataTables(page: string, tables: string = dataTables()): string {
  const start = page.indexOf(GENERATED_START);
  const end = page.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error(`docs/reference/data.md lacks its markers: ${GENERATED_START} ... ${GENERATED_END}`);
  return `${page.slice(0, start + GENERATED_START.length)}\n\n${tables}\n\n${page.slice(end)}`;
}

function main(): void {
  const current = readFileSync(DATA_DOC_FILE, 'utf8');
  const text = withDataTables(current);
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${DATA_DOC_FILE} is out of date: run npm run docs:data`);
      process.exit(1);
    }
    console.log(`${DATA_DOC_FILE} is up to date`);
    return;
  }
  if (current !== text) writeFileSync(DATA_DOC_FILE, text);
  console.log(`${DATA_DOC_FILE} ${current === text ? 'was up to date' : 'written'}`);
}

if (require.main === module) main();
