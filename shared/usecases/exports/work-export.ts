/**
 * One request's work on a claimed export: stretches until every kind is written, the time budget is
 * spent, or (tests) the stretch cap. A stretch reads pages of the current kind from the saved position
 * until it holds a part's worth of records (or the kind ends), writes them as the kind's next part file
 * (and its CSV twin for suppressions), then saves the new position and totals on the head. A request
 * that dies between the file and the save leaves the head where it was: the next request reads the
 * same records again and writes the same part key over it, so no record is exported twice.
 */
import { ConflictError } from '../../domain/errors';
import {
  EXPORT_KINDS,
  isWorked,
  partKey,
  type ExportHead,
  type ExportKind,
  type KindTotals,
  type ListPosition,
} from '../../domain/exports/export';
import { toNdjson, toSuppressionCsv, type SuppressionCsvRow } from '../../domain/exports/formats';
import { addressesOfRecords } from '../../domain/privacy/named-addresses';
import type { ExportDeps } from './deps';
import { SOURCES } from './sources';

/** Rows asked of a list per page (the list methods' own limit). */
const PAGE_LIMIT = 100;

/** The answer to a request that ran past its lease: another request took the export over. */
export function claimLost(): ConflictError {
  return new ConflictError('Another request took over this export (this one ran past its lease); GET /exports/{id} shows where it stands.');
}

interface Stretch {
  records: unknown[];
  csv: SuppressionCsvRow[];
  next: ListPosition | null;
}

async function readStretch(deps: ExportDeps, head: ExportHead, kind: ExportKind, deadlineMs: number): Promise<Stretch> {
  const stretch: Stretch = { records: [], csv: [], next: head.progress.position };
  const wanted = deps.exportSettings.partRecords;
  do {
    const page = await SOURCES[kind](deps, head.account_id, stretch.next, Math.min(PAGE_LIMIT, wanted - stretch.records.length));
    stretch.records.push(...page.records);
    stretch.csv.push(...(page.csv ?? []));
    stretch.next = page.next;
  } while (stretch.next !== null && stretch.records.length < wanted && deps.clock.now().getTime() < deadlineMs);
  return stretch;
}

/** Writes the stretch's part files (none for an empty stretch, but for a kind's first: every kind has a file). */
async function writeParts(deps: ExportDeps, head: ExportHead, kind: ExportKind, stretch: Stretch, totals: KindTotals): Promise<KindTotals> {
  const isFirst = totals.part_sizes.length === 0;
  if (stretch.records.length === 0 && !(isFirst && stretch.next === null)) return totals;
  const part = totals.part_sizes.length + 1;
  const ndjson = toNdjson(stretch.records);
  // Every address the part names is referenced first (docs/erasure.md): an erasure of any of them deletes the export.
  await deps.exports.nameAddresses(head, addressesOfRecords(stretch.records));
  await deps.blobs.put(partKey(head.account_id, head.id, kind, part, 'ndjson'), ndjson, 'application/x-ndjson');
  const next: KindTotals = {
    ...totals,
    records: totals.records + stretch.records.length,
    part_sizes: [...totals.part_sizes, Buffer.byteLength(ndjson)],
  };
  if (kind === 'suppressions') {
    const csv = toSuppressionCsv(stretch.csv, isFirst);
    await deps.blobs.put(partKey(head.account_id, head.id, kind, part, 'csv'), csv, 'text/csv; charset=utf-8');
    next.csv_part_sizes = [...(totals.csv_part_sizes ?? []), Buffer.byteLength(csv)];
  }
  return next;
}

/** Works the claimed export `head` (claimed until `leaseUntilMs`) until done or out of time; then ends the claim. */
export async function workExport(deps: ExportDeps, head: ExportHead, leaseUntilMs: number, startedMs: number): Promise<void> {
  const { budgetMs, maxStretchesPerRequest } = deps.exportSettings;
  const deadlineMs = startedMs + budgetMs;
  let stretches = 0;
  while (!isWorked(head)) {
    // At least one stretch per request, so every request moves the export on.
    if (
      stretches > 0 &&
      (deps.clock.now().getTime() >= deadlineMs || (maxStretchesPerRequest !== null && stretches >= maxStretchesPerRequest))
    )
      break;
    const kind = EXPORT_KINDS[head.progress.kind]!;
    const stretch = await readStretch(deps, head, kind, deadlineMs);
    const totals = { ...head.totals, [kind]: await writeParts(deps, head, kind, stretch, head.totals[kind]) };
    const progress =
      stretch.next === null ? { kind: head.progress.kind + 1, position: null } : { kind: head.progress.kind, position: stretch.next };
    if (!(await deps.exports.saveStretch(head, leaseUntilMs, { progress, totals }, deps.clock.now().toISOString()))) throw claimLost();
    stretches++;
  }
  if (!(await deps.exports.finish(head, leaseUntilMs, isWorked(head) ? 'completed' : 'running', deps.clock.now().toISOString())))
    throw claimLost();
}
