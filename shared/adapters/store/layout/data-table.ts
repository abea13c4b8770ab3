/**
 * The docs' tables of the key layout (docs/reference/data.md, between its generated markers), rendered from
 * the declarations (./data-layout.ts): one table per area, its columns the keys, the indexes its entities
 * use, and what each holds.
 */
import { DATA_LAYOUT } from './data-layout';
import { INDEX_NAMES, type EntityLayout, type IndexEntry, type KeyTemplate, type LayoutArea } from './entity-layout';

/** A table cell's text: `|` escaped (also inside code spans, as GitHub's tables need). */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A template as code, its forms joined by "or". */
const template = (key: KeyTemplate) => (typeof key === 'string' ? [key] : key).map((form) => `\`${form}\``).join(' or ');

const indexCell = (entries: readonly IndexEntry[]) =>
  entries.map((entry) => `${template(entry.pk)} / ${template(entry.sk)}${entry.note ? ` (${entry.note})` : ''}`).join('; ');

function row(entity: EntityLayout, indexes: readonly string[]): string {
  const cells = [
    entity.item,
    template(entity.pk),
    template(entity.sk),
    ...indexes.map((index) => indexCell((entity.indexes ?? []).filter((entry) => entry.index === index))),
    entity.description,
  ];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** One area's heading and table: the index columns are those its entities use. */
function areaTable(area: LayoutArea): string {
  const used = new Set(area.entities.flatMap((entity) => (entity.indexes ?? []).map((entry) => entry.index)));
  const indexes = INDEX_NAMES.filter((index) => used.has(index));
  const header = ['item', 'PK', 'SK', ...indexes, 'what it holds'];
  return [
    `### ${area.title}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---|').join('')}`,
    ...area.entities.map((entity) => row(entity, indexes)),
  ].join('\n');
}

/** The generated part of docs/reference/data.md: every area's table. */
export function dataTables(layout: readonly LayoutArea[] = DATA_LAYOUT): string {
  return layout.map(areaTable).join('\n\n');
}
