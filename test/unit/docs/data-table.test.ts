/**
 * docs/reference/data.md's tables are what the key layout's declarations (shared/adapters/store/layout/)
 * generate. When this fails, a declaration changed: run `npm run docs:data`.
 */
import { readFileSync } from 'node:fs';
import { dataTables } from '#shared/adapters/store/layout/data-table';
import { DATA_LAYOUT } from '#shared/adapters/store/layout/data-layout';
import type { LayoutArea } from '#shared/adapters/store/layout/entity-layout';
import { DATA_DOC_FILE, GENERATED_END, GENERATED_START, withDataTables } from '#shared/adapters/store/layout/write-data-doc';

const page = readFileSync(DATA_DOC_FILE, 'utf8');

test('the data reference holds the tables the declarations generate (else: npm run docs:data)', () => {
  expect(page === withDataTables(page)).toBe(true);
});

test('every entity of the layout has its row, under its area', () => {
  const generated = page.slice(page.indexOf(GENERATED_START), page.indexOf(GENERATED_END));
  for (const area of DATA_LAYOUT) {
    expect(generated).toContain(`### ${area.title}\n`);
    for (const entity of area.entities) expect(generated).toContain(`\n| ${entity.item.replace(/\|/g, '\\|')} | `);
  }
});

test('a table has a column for each index its entities use, escapes | and joins the forms of a key', () => {
  const area: LayoutArea = {
    title: 'Probe',
    entities: [
      {
        item: 'thing',
        description: 'a <b|c> note',
        pk: 'THING#<id>',
        sk: ['A', 'B#<x|y>'],
        indexes: [{ index: 'GSI3', pk: 'P', sk: '<id>', note: 'sparse' }],
        built: () => [],
      },
    ],
  };
  expect(dataTables([area])).toBe(
    [
      '### Probe',
      '',
      '| item | PK | SK | GSI3 | what it holds |',
      '|---|---|---|---|---|',
      '| thing | `THING#<id>` | `A` or `B#<x\\|y>` | `P` / `<id>` (sparse) | a <b\\|c> note |',
    ].join('\n'),
  );
});

test('the page keeps its markers: what is outside them is written by hand', () => {
  expect(() => withDataTables('# no markers\n')).toThrow('lacks its markers');
  expect(withDataTables(`before\n${GENERATED_START}\nold\n${GENERATED_END}\nafter\n`, 'T')).toBe(
    `before\n${GENERATED_START}\n\nT\n\n${GENERATED_END}\nafter\n`,
  );
});
