/**
 * A suppressions CSV turned into POST /suppressions batches (docs/suppressions.md). Columns are named by
 * a header row (`email` required; `reason`, `tenant`, `category` read; others such as `scope` and
 * `created_at`, which `suppressions export` writes, ignored); without a header the columns are
 * email,reason. POST /suppressions accepts only `reason: manual` (the service sets bounce, complaint and
 * unsubscribe itself), so rows with those reasons are added as manual and counted in `relabelled`.
 * Rows with `category` (product, newsletter) become category opt-outs. Batches group rows by (tenant,
 * category), at most `batchSize` addresses each (the API takes 1-1000).
 */
import type { CsvBadLine, CsvRow } from '../csv/csv';

export interface PlannedLine {
  line: number;
  email: string;
}

export interface Batch {
  tenant?: string;
  category?: string;
  lines: PlannedLine[];
}

export interface ImportPlan {
  batches: Batch[];
  refused: CsvBadLine[];
  /** Lines whose address already appeared earlier in the file (same list). */
  duplicates: number;
  /** Lines whose reason (bounce, complaint, unsubscribe) the API cannot set: added as manual. */
  relabelled: Record<string, number>;
}

const REASONS = ['manual', 'bounce', 'complaint', 'unsubscribe'];
const CATEGORIES = ['product', 'newsletter'];
/** The shape of an address, checked before sending so one bad line does not cost a round trip; the API has the last word. */
const ADDRESS = /^[^\s@",<>]+@[^\s@",<>]+\.[^\s@",<>]+$/;

export function planImport(rows: CsvRow[], bad: CsvBadLine[], batchSize: number): ImportPlan {
  const refused = [...bad];
  const relabelled: Record<string, number> = {};
  let duplicates = 0;
  let columns = {
    email: 0,
    reason: 1 as number | undefined,
    tenant: undefined as number | undefined,
    category: undefined as number | undefined,
  };
  let body = rows;
  const first = rows[0];
  if (first && !first.cells[0]?.includes('@')) {
    const names = first.cells.map((cell) => cell.toLowerCase().trim());
    const at = (name: string) => (names.indexOf(name) >= 0 ? names.indexOf(name) : undefined);
    const email = at('email');
    if (email === undefined) {
      throw new Error(
        `line ${first.line}: the header has no "email" column (found: ${first.cells.join(', ') || 'nothing'}); write a header like email,reason`,
      );
    }
    columns = { email, reason: at('reason'), tenant: at('tenant'), category: at('category') };
    body = rows.slice(1);
  }
  const groups = new Map<string, { tenant?: string; category?: string; lines: PlannedLine[]; seen: Set<string> }>();
  for (const row of body) {
    const cell = (index: number | undefined) => (index === undefined ? '' : (row.cells[index] ?? '').trim());
    const email = cell(columns.email).toLowerCase();
    const reason = cell(columns.reason).toLowerCase();
    const tenant = cell(columns.tenant);
    const category = cell(columns.category).toLowerCase();
    if (!email) {
      refused.push({ line: row.line, reason: 'no email address' });
      continue;
    }
    if (!ADDRESS.test(email)) {
      refused.push({ line: row.line, reason: `"${email}" is not an email address` });
      continue;
    }
    if (reason && !REASONS.includes(reason)) {
      refused.push({ line: row.line, reason: `reason "${reason}" is not one of ${REASONS.join(', ')}` });
      continue;
    }
    if (category && !CATEGORIES.includes(category)) {
      refused.push({ line: row.line, reason: `category "${category}" is not product or newsletter` });
      continue;
    }
    const key = `${tenant}\u0000${category}`;
    let group = groups.get(key);
    if (!group) {
      group = { ...(tenant ? { tenant } : {}), ...(category ? { category } : {}), lines: [], seen: new Set() };
      groups.set(key, group);
    }
    if (group.seen.has(email)) {
      duplicates++;
      continue;
    }
    group.seen.add(email);
    if (reason && reason !== 'manual' && !category) relabelled[reason] = (relabelled[reason] ?? 0) + 1;
    group.lines.push({ line: row.line, email });
  }
  const batches: Batch[] = [];
  for (const { seen: _seen, lines, ...list } of groups.values()) {
    for (let i = 0; i < lines.length; i += batchSize) batches.push({ ...list, lines: lines.slice(i, i + batchSize) });
  }
  refused.sort((a, b) => a.line - b.line);
  return { batches, refused, duplicates, relabelled };
}
