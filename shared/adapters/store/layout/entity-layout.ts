/**
 * The shape of the table's key layout, declared once per entity (./data-layout.ts gathers them; learnt from
 * ElectroDB, where each entity's keys are data beside its attributes): the templates of its keys, its
 * entries on the secondary indexes, what it holds, and how the store builds its keys. From the declarations
 * docs/reference/data.md's table is generated (./data-table.ts, `npm run docs:data`), and
 * test/unit/store/key-layout.test.ts builds each entity's keys with the sample values (./samples.ts) and
 * holds them to its templates, so a builder (../keys.ts) and its declaration cannot disagree.
 */
import type { keys } from '../keys';
import type { SAMPLES } from './samples';

/**
 * A key as text with `<placeholders>` (each named in ./samples.ts: `EMAIL#<msg>`); a list when the key
 * takes one of several forms (`['ACCOUNT', 'TENANT#<t>']`).
 */
export type KeyTemplate = string | readonly string[];

export type IndexName = 'GSI1' | 'GSI2' | 'GSI3' | 'GSI4' | 'GSI5';

export const INDEX_NAMES: readonly IndexName[] = ['GSI1', 'GSI2', 'GSI3', 'GSI4', 'GSI5'];

/** An entity's entry on a secondary index. */
export interface IndexEntry {
  index: IndexName;
  pk: KeyTemplate;
  sk: KeyTemplate;
  /** When the item carries it, or what reads it (markdown; the table says it after the keys). */
  note?: string;
}

/** Keys as the store builds them, whole or in part: an item's keys, a partition, a prefix of sort keys, index keys. */
export type BuiltKeys = Partial<Record<'PK' | 'SK' | 'SKPrefix' | `${IndexName}PK` | `${IndexName}SK`, string>>;

export interface EntityLayout {
  /** The entity as the table names it. */
  item: string;
  /** What it holds, its lifetime (TTL) and why it is keyed so (markdown). */
  description: string;
  pk: KeyTemplate;
  sk: KeyTemplate;
  indexes?: readonly IndexEntry[];
  /**
   * Its keys as the store builds them, from the sample values: every builder of `keys` it uses, and every
   * form of each template, appear here (test/unit/store/key-layout.test.ts).
   */
  built: (k: typeof keys, v: typeof SAMPLES) => BuiltKeys[];
}

/** A part of the table, with the entities it holds (one table each in the docs). */
export interface LayoutArea {
  title: string;
  entities: readonly EntityLayout[];
}
